import openapiTS, { astToString } from 'openapi-typescript';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createContainer } from '../../src/container.ts';
import { createLogger } from '../../src/logger.ts';
import { scratchDatabase } from './scratch-database.ts';

export const SDK_TYPES_FILE = new URL('../../packages/sdk/src/generated/openapi.ts', import.meta.url);

/**
 * The service's OpenAPI document, as a default installation serves it: SQLite, no operator token,
 * no payment provider. The document does not depend on the data, only on the routes.
 */
export async function openApiDocument(): Promise<Record<string, unknown>> {
  const scratch = await scratchDatabase('sqlite', { prefix: 'arbiter_openapi' });
  const config = loadConfig({ ...scratch.env, ARBITER_EMBEDDER: 'hash' });
  const container = await createContainer(config, createLogger('silent'));
  try {
    const app = await buildApp(container);
    const document = app.swagger() as unknown as Record<string, unknown>;
    await app.close();
    return document;
  } finally {
    await container.close();
    await scratch.drop();
  }
}

/** The SDK's generated types, as `npm run sdk:generate` writes them. */
export async function renderSdkTypes(): Promise<string> {
  const ast = await openapiTS(JSON.parse(JSON.stringify(await openApiDocument())), { alphabetize: true });
  return [
    "// Generated from the service's OpenAPI document by `npm run sdk:generate`. Do not edit.",
    '// A test regenerates it and fails when this file differs.',
    '',
    astToString(ast),
  ].join('\n');
}
