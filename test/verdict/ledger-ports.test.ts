import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createContainer } from '../../src/container.ts';
import { generateKey } from '../../src/domains/api-keys/key-format.ts';
import { checkTextAgainstFacts } from '../../src/domains/ledger/conflicts.ts';
import type { Finding } from '../../src/domains/verdict/codes.ts';
import { MemoryLoopStore } from '../../src/domains/verdict/loop-detector.ts';
import { createVerdictRepo } from '../../src/domains/verdict/repo.ts';
import {
  createVerdictService,
  type LedgerStatePort,
  type LedgerTextPort,
} from '../../src/domains/verdict/service.ts';
import { createLogger } from '../../src/logger.ts';
import { bearer } from '../helpers/app.ts';
import { DIALECTS, freshDatabase, type TestDatabase } from '../helpers/databases.ts';

// The claim ledger implements these ports; here they are driven by the ledger's real contradiction
// checker over a fixed set of facts and by a state hash that moves, to show how the verdict uses them.
const FACTS = [{ id: 'c1', text: 'The production database is hosted in Frankfurt.' }];
let state = '';
const ledgerState: LedgerStatePort = { currentStateHash: async () => state };
const ledgerText: LedgerTextPort = {
  // Asynchronous on purpose: a ledger reading facts from storage answers with a promise.
  checkText: async (_accountId, text): Promise<Finding[]> =>
    checkTextAgainstFacts(text, FACTS).map((c) => ({
      code: 'CONFLICT_DETECTED',
      message: `contradicts verified claim ${c.fact.id} (${c.conflict.kind})`,
      location: `sentence at ${c.start}`,
    })),
};

describe.each(DIALECTS)('ledger ports on %s', (dialect) => {
  let database: TestDatabase;
  let close: () => Promise<void>;
  let inject: (
    body: unknown,
    headers?: Record<string, string>,
  ) => Promise<{ status: number; body: Record<string, unknown> & { state_hash?: string } }>;

  beforeAll(async () => {
    state = 'a'.repeat(64);
    database = await freshDatabase(dialect);
    const config = loadConfig({
      ARBITER_DATA_DIR: database.dir,
      ARBITER_LOG_LEVEL: 'silent',
      ARBITER_EMBEDDER: 'hash',
      ...(database.database.kind === 'postgres' ? { DATABASE_URL: database.database.url } : {}),
    });
    const container = await createContainer(config, createLogger('silent'));
    container.services.verdicts = createVerdictService({
      db: container.db.kysely,
      repo: createVerdictRepo(container.db.kysely),
      audit: container.audit.repo,
      recordAudit: (event) => container.audit.record(event),
      ledgerState,
      ledgerText,
      loops: new MemoryLoopStore(),
      log: container.logger,
    });
    const secret = generateKey();
    await container.services.accounts.ensureOwner(secret);
    const app = await buildApp(container);
    inject = async (body, headers = {}) => {
      const res = await app.inject({
        method: 'POST',
        url: '/v1/evaluate',
        headers: { ...bearer(secret), ...headers },
        payload: body as object,
      });
      return { status: res.statusCode, body: res.json() };
    };
    close = async () => {
      await app.close();
      await container.close();
      await database.drop();
    };
  });
  afterAll(() => close());

  it('answers CONFLICT_DETECTED with 409 and the verdict body', async () => {
    const res = await inject({
      action: 'agent.respond',
      payload: { text: 'The production database is not hosted in Frankfurt.' },
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      is_safe: false,
      error: { code: 'CONFLICT_DETECTED', message: expect.stringContaining('c1') },
    });
    const mail = await inject({
      action: 'email.send',
      payload: {
        to: 'ops@example.com',
        subject: 'Hosting',
        body: 'The production database is not hosted in Frankfurt.',
      },
    });
    expect(mail.status).toBe(409);
    const agreeing = await inject({
      action: 'agent.respond',
      payload: { text: 'The production database is hosted in Frankfurt.' },
    });
    expect(agreeing.status).toBe(200);
    expect(agreeing.body.is_safe).toBe(true);
  });

  it('returns the state hash it saw and refuses a stale expectation with 412', async () => {
    const seen = await inject({ action: 'fs.read', payload: { path: 'a' } });
    expect(seen.body.state_hash).toBe(state);
    const expected = seen.body.state_hash as string;
    expect(
      (await inject({ action: 'fs.read', payload: { path: 'a' }, expected_state_hash: expected })).status,
    ).toBe(200);
    state = 'b'.repeat(64); // another writer appended to the ledger
    const drift = await inject(
      { action: 'fs.read', payload: { path: 'a' } },
      { 'if-match': `"${expected}"` },
    );
    expect(drift.status).toBe(412);
    expect(drift.body).toMatchObject({ state_hash: state, error: { code: 'STATE_DRIFT' } });
  });
});
