import { readFileSync } from 'node:fs';
import { SERVICE_ERROR_CODES } from '@arbiter/sdk';
import { describe, expect, it } from 'vitest';
import { renderSdkTypes, SDK_TYPES_FILE } from '../../scripts/lib/sdk-types.ts';
import { ERROR_STATUS } from '../../src/errors.ts';

describe('the SDK stays in step with the service', () => {
  it('has the types a fresh generation from the OpenAPI document gives (npm run sdk:generate)', async () => {
    const committed = readFileSync(SDK_TYPES_FILE, 'utf8');
    const fresh = await renderSdkTypes();
    expect(fresh.length).toBeGreaterThan(1000);
    expect(committed === fresh, 'the SDK types differ from the API: run `npm run sdk:generate`').toBe(true);
  });

  it('knows every error code of the service', () => {
    expect([...SERVICE_ERROR_CODES].sort()).toEqual(Object.keys(ERROR_STATUS).sort());
  });
});
