import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderSdkTypes, SDK_TYPES_FILE } from './lib/sdk-types.ts';

writeFileSync(SDK_TYPES_FILE, await renderSdkTypes());
process.stdout.write(`wrote ${fileURLToPath(SDK_TYPES_FILE)}\n`);
