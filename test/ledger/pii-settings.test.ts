import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../helpers/app.ts';
import { DIALECTS } from '../helpers/databases.ts';

describe.each(DIALECTS)('scrubbing settings over HTTP on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const call = (key: string, method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(key), ...(payload ? { payload } : {}) });

  it('reads national numbers in the region the account set, and only for that account', async () => {
    const spain = (await t.newAccount()).key;
    const other = (await t.newAccount()).key;
    expect((await call(spain, 'GET', '/v2/vault/settings/pii')).json()).toEqual({
      phone_region: 'US',
      names: 'pseudonymize',
      updated_at: null,
    });
    const put = await call(spain, 'PUT', '/v2/vault/settings/pii', { phone_region: 'es' });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ phone_region: 'ES', updated_at: expect.any(String) });
    expect((await call(spain, 'GET', '/v2/vault/settings/pii')).json().phone_region).toBe('ES');
    expect((await call(other, 'GET', '/v2/vault/settings/pii')).json().phone_region).toBe('US');

    const claim = {
      claim: 'La recepción atiende en el 912 345 678 por la mañana.',
      source: 'web',
      confidence: 1,
    };
    const inSpain = (await call(spain, 'POST', '/v2/vault/store', claim)).json();
    expect(inSpain.claim).toBe('La recepción atiende en el <PHONE> por la mañana.');
    expect(inSpain.scrubbed).toEqual({ PHONE: 1 });
    const elsewhere = (await call(other, 'POST', '/v2/vault/store', claim)).json();
    expect(elsewhere.claim).toContain('912 345 678');
  });

  it('scrubs a UK number and names in the default region; a name is the same pseudonym in a query', async () => {
    const key = (await t.newAccount()).key;
    const res = await call(key, 'POST', '/v2/vault/store', {
      claim: 'Lisa Wirtz answers the London desk on 020 7946 0958.',
      source: 'call notes',
      confidence: 1,
    });
    expect(res.statusCode).toBe(201);
    const stored = res.json();
    expect(stored.claim).toMatch(
      /^<PERSON[0-9a-f]{8}> <PERSON[0-9a-f]{8}> answers the London desk on <PHONE>\.$/,
    );
    expect(stored.scrubbed).toEqual({ PERSON: 1, PHONE: 1 });
    expect(JSON.stringify(stored)).not.toMatch(/Lisa|Wirtz|7946/);
    await call(key, 'POST', '/v2/vault/store', {
      claim: 'Tom Baker answers the Paris desk in the mornings.',
      source: 'call notes',
      confidence: 1,
    });
    const found = (
      await call(key, 'POST', '/v2/vault/search', { query: 'Which desk does Lisa answer?' })
    ).json();
    // Found through the pseudonym, and shown to its owner with the name as written.
    expect(found.results[0]?.id).toBe(stored.id);
    expect(found.results[0]?.claim).toBe('Lisa Wirtz answers the London desk on <PHONE>.');
    // Another account's pseudonym for the same name is another one.
    const other = (await t.newAccount()).key;
    const elsewhere = (
      await call(other, 'POST', '/v2/vault/store', {
        claim: 'Lisa Wirtz answers the desk.',
        source: 'x',
        confidence: 1,
      })
    ).json();
    expect(elsewhere.claim.slice(0, 17)).not.toBe(stored.claim.slice(0, 17));
  });

  it('checks what an agent says about a person against the facts, with the same pseudonyms', async () => {
    const key = (await t.newAccount()).key;
    await call(key, 'POST', '/v2/vault/store', {
      claim: 'Maria Lopez is on call this week.',
      source: 'rota',
      confidence: 1,
    });
    const say = (text: string) =>
      call(key, 'POST', '/v1/evaluate', { action: 'agent.respond', payload: { text } });
    const denied = (await say('Maria Lopez is not on call this week.')).json();
    expect(denied.is_safe).toBe(false);
    expect(denied.error.code).toBe('CONFLICT_DETECTED');
    expect((await say('Maria Lopez is on call this week.')).json().is_safe).toBe(true);
    // A long text goes to the text-check thread: the name there is scrubbed the same way.
    const long = `${'The weather was fine and the team met as planned. '.repeat(120)}Maria Lopez is not on call this week.`;
    const late = (await say(long)).json();
    expect(late.is_safe).toBe(false);
    expect(late.error.code).toBe('CONFLICT_DETECTED');
  });

  it.each([
    [{ phone_region: 'XX' }],
    [{ phone_region: 'GBR' }],
    [{ phone_region: 12 }],
    [{}],
    [{ phone_region: 'GB', extra: true }],
  ])('refuses %j with a 400 and keeps the setting', async (body) => {
    const key = (await t.newAccount()).key;
    await call(key, 'PUT', '/v2/vault/settings/pii', { phone_region: 'GB' });
    const res = await call(key, 'PUT', '/v2/vault/settings/pii', body);
    expect(res.statusCode).toBe(400);
    expect((await call(key, 'GET', '/v2/vault/settings/pii')).json().phone_region).toBe('GB');
  });
});

describe.each(DIALECTS)('how names are kept, on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const call = (key: string, method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(key), ...(payload ? { payload } : {}) });
  const claim = { claim: 'Lisa Wirtz reviews the compiler.', source: 'notes', confidence: 1 };

  it('pseudonymizes by default, redacts or keeps names when the account says so', async () => {
    const key = (await t.newAccount()).key;
    expect((await call(key, 'GET', '/v2/vault/settings/pii')).json()).toMatchObject({
      phone_region: 'US',
      names: 'pseudonymize',
    });
    expect((await call(key, 'POST', '/v2/vault/store', claim)).json().claim).toMatch(
      /^<PERSON[0-9a-f]{8}> <PERSON[0-9a-f]{8}> reviews the compiler\.$/,
    );

    const put = await call(key, 'PUT', '/v2/vault/settings/pii', { names: 'redact' });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ phone_region: 'US', names: 'redact' });
    const redacted = (
      await call(key, 'POST', '/v2/vault/store', { ...claim, claim: 'Maria Lopez reviews the compiler.' })
    ).json();
    expect(redacted.claim).toBe('<PERSON> reviews the compiler.');

    await call(key, 'PUT', '/v2/vault/settings/pii', { names: 'keep', phone_region: 'GB' });
    expect((await call(key, 'GET', '/v2/vault/settings/pii')).json()).toMatchObject({
      phone_region: 'GB',
      names: 'keep',
    });
    const kept = (
      await call(key, 'POST', '/v2/vault/store', { ...claim, claim: 'Lisa Wirtz reviews the parser.' })
    ).json();
    expect(kept.claim).toBe('Lisa Wirtz reviews the parser.');
    // The region set before stays when only names change.
    await call(key, 'PUT', '/v2/vault/settings/pii', { names: 'pseudonymize' });
    expect((await call(key, 'GET', '/v2/vault/settings/pii')).json().phone_region).toBe('GB');
  });

  it.each([[{ names: 'hide' }], [{ names: null }], [{ names: 'keep', extra: 1 }]])(
    'refuses %j with a 400',
    async (body) => {
      const key = (await t.newAccount()).key;
      expect((await call(key, 'PUT', '/v2/vault/settings/pii', body)).statusCode).toBe(400);
      expect((await call(key, 'GET', '/v2/vault/settings/pii')).json().names).toBe('pseudonymize');
    },
  );
});
