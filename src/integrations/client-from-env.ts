import { type Arbiter, type ArbiterOptions, createArbiter } from '@arbiter/sdk';

/** The client the integrations use: `ARBITER_URL` (default http://127.0.0.1:8080) and `ARBITER_API_KEY`. */
export function arbiterFromEnv(
  env: NodeJS.ProcessEnv,
  options: Omit<ArbiterOptions, 'baseUrl' | 'apiKey'> = {},
): Arbiter {
  return createArbiter({
    baseUrl: env.ARBITER_URL || 'http://127.0.0.1:8080',
    apiKey: env.ARBITER_API_KEY ?? '',
    ...options,
  });
}
