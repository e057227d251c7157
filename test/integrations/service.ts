import type { AddressInfo } from 'node:net';
import { createTestApp } from '../helpers/app.ts';

export interface RunningService {
  url: string;
  key: string;
  /** The environment a client process needs to reach this service. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * The real service on a fresh SQLite database, listening on a real socket in the test's process,
 * so the clients under test (separate processes) reach it over HTTP without waiting for a second
 * service process to boot on a busy machine.
 */
export async function startService(): Promise<RunningService> {
  const t = await createTestApp('sqlite');
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  return {
    url,
    key: t.ownerKey,
    env: { ARBITER_URL: url, ARBITER_API_KEY: t.ownerKey },
    stop: () => t.close(),
  };
}

/** A second key of the owner account: an escalation is decided with a key other than the one that asked. */
/** Another key of the account, of a role that may decide escalations: a person's. */
export async function secondKey(service: RunningService): Promise<string> {
  const res = await fetch(`${service.url}/api-keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'approver', role: 'operator' }),
  });
  if (res.status !== 201) throw new Error(`cannot create a key: ${res.status}`);
  return ((await res.json()) as { key: string }).key;
}
