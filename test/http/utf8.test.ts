import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../helpers/app.ts';
import { DIALECTS } from '../helpers/databases.ts';

/** Bytes that are not UTF-8 (a lone continuation byte, an overlong form, a cut sequence). */
const MALFORMED = [Buffer.from([0x80]), Buffer.from([0xc0, 0xaf]), Buffer.from([0xe2, 0x82])];

describe.each(DIALECTS)('a JSON body that is not UTF-8, on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t?.close());

  const store = (body: Buffer) =>
    t.app.inject({
      method: 'POST',
      url: '/v2/vault/store',
      headers: { ...bearer(t.ownerKey), 'content-type': 'application/json' },
      payload: body,
    });

  it('is refused with INVALID_JSON, and nothing is stored', async () => {
    for (const bad of MALFORMED) {
      const body = Buffer.concat([
        Buffer.from('{"claim":"The office is in Lyon '),
        bad,
        Buffer.from('.","source":"handbook","confidence":1}'),
      ]);
      const res = await store(body);
      expect(res.statusCode, bad.toString('hex')).toBe(400);
      expect(res.json().error.code).toBe('INVALID_JSON');
      expect(res.json().error.message).toContain('UTF-8');
    }
    const state = await t.app.inject({ method: 'GET', url: '/v2/vault/state', headers: bearer(t.ownerKey) });
    expect(state.statusCode).toBe(200);
    expect(state.json().entries).toBe(0);
  });

  it('accepts the same claim in UTF-8, accents and all', async () => {
    const res = await store(
      Buffer.from('{"claim":"Le siège est à Lyon.","source":"handbook","confidence":1}', 'utf8'),
    );
    expect(res.statusCode).toBe(201);
    expect(res.json().claim).toBe('Le siège est à Lyon.');
  });
});
