import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../helpers/app.ts';
import { DIALECTS } from '../helpers/databases.ts';

interface ListedClaim {
  id: string;
  short_id: string;
  claim: string;
  source: string;
  confidence: number;
  version: number;
  status: 'active' | 'superseded';
  created_at: string;
  updated_at: string;
}

interface Page {
  claims: ListedClaim[];
  next_cursor: string | null;
}

describe.each(DIALECTS)('GET /v2/vault/claims on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { ARBITER_LOG_LEVEL: 'silent' } });
  });
  afterAll(() => t.close());

  const list = (key: string, query = '') =>
    t.app.inject({ method: 'GET', url: `/v2/vault/claims${query}`, headers: bearer(key) });
  const page = async (key: string, query = '') => {
    const res = await list(key, query);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Page;
  };
  const storeBatch = async (
    key: string,
    claims: Array<{ claim: string; source?: string; on_conflict?: string }>,
  ) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v2/vault/store_batch',
      headers: bearer(key),
      payload: { claims: claims.map((c) => ({ source: 'notes', confidence: 0.7, ...c })) },
    });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { results: Array<{ id: string }> }).results.map((r) => r.id);
  };
  /** Every page from the start, following next_cursor: the ids in the order they came. */
  const walk = async (key: string, limit: number) => {
    const ids: string[] = [];
    let pages = 0;
    let cursor: string | null = null;
    do {
      const p = await page(key, `?limit=${limit}${cursor === null ? '' : `&cursor=${cursor}`}`);
      ids.push(...p.claims.map((c) => c.id));
      cursor = p.next_cursor;
      pages++;
      expect(pages).toBeLessThan(100);
    } while (cursor !== null);
    return { ids, pages };
  };

  it('walks every claim exactly once in the order they were first stored', async () => {
    const { key } = await t.newAccount();
    expect(await page(key)).toEqual({ claims: [], next_cursor: null });
    const ids = await storeBatch(
      key,
      Array.from({ length: 21 }, (_, i) => ({ claim: `Inventory item ${i} is stored in aisle ${i + 3}.` })),
    );
    // Pages of 7 over 21 claims: three full pages and no empty fourth.
    const byPagesOfSeven = await walk(key, 7);
    expect(byPagesOfSeven).toEqual({ ids, pages: 3 });
    const byPagesOfFive = await walk(key, 5);
    expect(byPagesOfFive).toEqual({ ids, pages: 5 });
    // A new version keeps its claim's place: the walk still meets it once.
    await storeBatch(key, [{ claim: 'inventory item 0 is stored in aisle 3', source: 'recount' }]);
    const after = await walk(key, 4);
    expect(after.ids).toEqual(ids);
    const first = (await page(key, '?limit=1')).claims[0]!;
    expect(first).toMatchObject({
      id: ids[0],
      claim: 'inventory item 0 is stored in aisle 3',
      source: 'recount',
      confidence: 0.7,
      version: 2,
      status: 'active',
    });
    expect(first.short_id).toMatch(/^c[0-9A-Za-z]{11}$/);
    expect(Date.parse(first.updated_at)).toBeGreaterThanOrEqual(Date.parse(first.created_at));
  });

  it('pages by 50 by default and 200 at most', async () => {
    const { key } = await t.newAccount();
    const ids = await storeBatch(
      key,
      Array.from({ length: 60 }, (_, i) => ({ claim: `Sensor ${i} reports every ${i + 1} seconds.` })),
    );
    const first = await page(key);
    expect(first.claims.map((c) => c.id)).toEqual(ids.slice(0, 50));
    expect(first.next_cursor).not.toBeNull();
    const second = await page(key, `?cursor=${first.next_cursor}`);
    expect(second).toMatchObject({ next_cursor: null });
    expect(second.claims.map((c) => c.id)).toEqual(ids.slice(50));
    expect((await page(key, '?limit=200')).claims).toHaveLength(60);
    for (const limit of ['0', '201', 'ten']) {
      const res = await list(key, `?limit=${limit}`);
      expect(res.statusCode, limit).toBe(400);
      expect(res.json().error).toMatchObject({
        code: 'VALIDATION_ERROR',
        message: expect.stringContaining('querystring/limit'),
      });
    }
  });

  it('filters by source and by the time a claim was stored or changed', async () => {
    const { key } = await t.newAccount();
    const early = await storeBatch(key, [
      { claim: 'The office opens at 8.', source: 'handbook' },
      { claim: 'Parking is free after 6 pm.', source: 'wiki' },
    ]);
    await new Promise((r) => setTimeout(r, 20));
    const mark = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 20));
    const late = await storeBatch(key, [
      { claim: 'The cafeteria closes at 3 pm.', source: 'handbook' },
      { claim: 'Bikes go in the basement.', source: 'wiki' },
    ]);
    const ids = async (query: string) => (await page(key, query)).claims.map((c) => c.id);
    expect(await ids('?source=handbook')).toEqual([early[0], late[0]]);
    expect(await ids('?source=wiki')).toEqual([early[1], late[1]]);
    expect(await ids('?source=nobody')).toEqual([]);
    expect(await ids(`?since=${encodeURIComponent(mark)}`)).toEqual(late);
    expect(await ids(`?since=${encodeURIComponent(mark)}&source=wiki`)).toEqual([late[1]]);
    // The same instant written with an offset selects the same claims.
    const offset = new Date(Date.parse(mark) + 2 * 3600_000).toISOString().replace('Z', '+02:00');
    expect(await ids(`?since=${encodeURIComponent(offset)}`)).toEqual(late);
    // A new version of an early claim is a change since the mark; it keeps its place.
    await storeBatch(key, [{ claim: 'The office opens at 8', source: 'handbook' }]);
    expect(await ids(`?since=${encodeURIComponent(mark)}`)).toEqual([early[0], ...late]);
    expect(await ids('?since=2000-01-01T00:00:00Z')).toEqual([...early, ...late]);
    expect(await ids('?since=2999-01-01T00:00:00Z')).toEqual([]);

    // Sources are stored scrubbed; the filter is scrubbed the same way, so it still finds them.
    const [mailed] = await storeBatch(key, [
      { claim: 'Invoices are due in 30 days.', source: 'mail from jane@acme.example' },
    ]);
    expect(await ids(`?source=${encodeURIComponent('mail from jane@acme.example')}`)).toEqual([mailed]);
    expect(await ids(`?source=${encodeURIComponent('mail from <EMAIL>')}`)).toEqual([mailed]);

    for (const since of ['yesterday', '2026-13-01T00:00:00Z', '2026-11-23', '2026-12-31T23:59:60Z']) {
      const res = await list(key, `?since=${encodeURIComponent(since)}`);
      expect(res.statusCode, since).toBe(400);
      expect(res.json().error, since).toMatchObject({
        code: 'VALIDATION_ERROR',
        message: expect.stringContaining('querystring/since'),
      });
    }
  });

  it('hides superseded claims unless asked and never lists deleted ones', async () => {
    const { key } = await t.newAccount();
    const [open, terrace] = await storeBatch(key, [
      { claim: 'The Berlin office is open on Sundays.' },
      { claim: 'The Lisbon office has a rooftop terrace.' },
    ]);
    const [closed] = await storeBatch(key, [
      { claim: 'The Berlin office is closed on Sundays.', on_conflict: 'supersede' },
    ]);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/v2/vault/claims/${terrace}`,
      headers: bearer(key),
    });
    expect(deleted.statusCode).toBe(200);

    expect((await page(key)).claims.map((c) => c.id)).toEqual([closed]);
    expect((await page(key, '?include_superseded=false')).claims.map((c) => c.id)).toEqual([closed]);
    const all = await page(key, '?include_superseded=true');
    expect(all.claims.map((c) => [c.id, c.status])).toEqual([
      [open, 'superseded'],
      [closed, 'active'],
    ]);
    expect((await list(key, '?include_superseded=maybe')).statusCode).toBe(400);
  });

  it("never shows one account another account's claims, whatever the cursor", async () => {
    const a = await t.newAccount();
    const b = await t.newAccount();
    const mine = await storeBatch(a.key, [
      { claim: 'Account A keeps the blue key.' },
      { claim: 'Account A parks in bay 4.' },
    ]);
    const theirs = await storeBatch(b.key, [{ claim: 'Account B keeps the red key.' }]);
    expect((await page(a.key, '?include_superseded=true&limit=200')).claims.map((c) => c.id)).toEqual(mine);
    expect((await page(b.key, '?include_superseded=true&limit=200')).claims.map((c) => c.id)).toEqual(theirs);
    // A cursor is a position, not a permission: A's cursor shows B nothing of A's.
    const cursor = (await page(a.key, '?limit=1')).next_cursor!;
    const withForeignCursor = await page(b.key, `?cursor=${cursor}&limit=200`);
    expect(withForeignCursor.claims.map((c) => c.id).filter((id) => mine.includes(id))).toEqual([]);
  });

  it('refuses a cursor it did not hand out and unknown parameters with 400', async () => {
    const { key } = await t.newAccount();
    for (const query of [
      '?cursor=not-a-cursor',
      `?cursor=${Buffer.from('[-1]').toString('base64url')}`,
      `?cursor=${Buffer.from('{"rowkey":1}').toString('base64url')}`,
      `?cursor=${'x'.repeat(101)}`,
      '?cursor=',
    ]) {
      const res = await list(key, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error, query).toMatchObject({
        code: 'VALIDATION_ERROR',
        message: expect.stringContaining('querystring/cursor'),
      });
    }
    const unknown = await list(key, '?status=deleted');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.message).toContain("unknown field 'status'");
  });
});
