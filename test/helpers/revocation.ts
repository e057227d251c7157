import { expect } from 'vitest';
import { bearer, type TestApp } from './app.ts';

/** Polls until `instance` refuses `key`; the milliseconds that took (Infinity past `limitMs`). */
export async function msUntilRefused(instance: TestApp, key: string, limitMs = 3000): Promise<number> {
  const start = performance.now();
  while (performance.now() - start < limitMs) {
    const res = await instance.app.inject({ method: 'GET', url: '/v1/whoami', headers: bearer(key) });
    if (res.statusCode === 401) return performance.now() - start;
    await new Promise((r) => setTimeout(r, 10));
  }
  return Number.POSITIVE_INFINITY;
}

/**
 * Creates a key on `a`, has `b` verify (and cache) it, revokes it on `a`, and returns how long
 * `b` went on accepting it.
 */
export async function revokeOnAThenTimeOnB(a: TestApp, b: TestApp, limitMs?: number): Promise<number> {
  const created = (
    await a.app.inject({
      method: 'POST',
      url: '/api-keys',
      headers: bearer(a.ownerKey),
      payload: { name: 'shared' },
    })
  ).json();
  for (let i = 0; i < 2; i++)
    expect(
      (await b.app.inject({ method: 'GET', url: '/v1/whoami', headers: bearer(created.key) })).statusCode,
    ).toBe(200);
  expect(
    (await a.app.inject({ method: 'DELETE', url: `/api-keys/${created.id}`, headers: bearer(a.ownerKey) }))
      .statusCode,
  ).toBe(200);
  return msUntilRefused(b, created.key, limitMs);
}
