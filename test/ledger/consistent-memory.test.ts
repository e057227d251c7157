import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../helpers/app.ts';
import { DIALECTS } from '../helpers/databases.ts';
import { consistentMemory, type MemoryFact, sample } from './fixtures/consistent-memory.ts';

/**
 * Issue 26, acceptance 1: a memory of 521 true facts whose relations are shared across many
 * subjects, stored one by one with the defaults (the shipped model), then checked the way an
 * agent uses it: what it says (`agent.respond`), what it asks, and what it corrects (`supersede`).
 */

interface Measured {
  stores: number;
  storesWithConflict: number;
  conflictExamples: string[];
  trueSent: number;
  trueRefused: number;
  refusedExamples: string[];
  falseSent: number;
  falseCaught: number;
  missedExamples: string[];
  superseded: number;
  supersededFirst: number;
  supersededOnlyOwn: number;
  supersedeExamples: string[];
  others: number;
  othersUnchanged: number;
  changedExamples: string[];
  answeredFirstBefore: number;
}

const SUPERSEDED = 25;
const STATEMENTS = 200;

describe.each(DIALECTS)('a memory of facts that share their relations, on %s', (dialect) => {
  let t: TestApp;
  let key: string;
  const m: Measured = {
    stores: 0,
    storesWithConflict: 0,
    conflictExamples: [],
    trueSent: 0,
    trueRefused: 0,
    refusedExamples: [],
    falseSent: 0,
    falseCaught: 0,
    missedExamples: [],
    superseded: 0,
    supersededFirst: 0,
    supersededOnlyOwn: 0,
    supersedeExamples: [],
    others: 0,
    othersUnchanged: 0,
    changedExamples: [],
    answeredFirstBefore: 0,
  };

  const post = async (url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, headers: bearer(key), payload });
  const store = async (claim: string, on_conflict?: 'supersede') => {
    const res = await post('/v2/vault/store', {
      claim,
      source: 'acceptance',
      confidence: 1,
      ...(on_conflict ? { on_conflict } : {}),
    });
    expect(res.statusCode).toBe(201);
    return res.json() as { id: string; conflicts: Array<{ claim: string }>; superseded: string[] };
  };
  const say = async (text: string) => {
    const res = await post('/v1/evaluate', { action: 'agent.respond', payload: { text } });
    return res.json() as { is_safe: boolean; error?: { code: string } };
  };
  const firstAnswer = async (question: string): Promise<string | undefined> => {
    const res = await post('/v2/vault/search', { query: question, top_k: 5 });
    return (res.json() as { results: Array<{ id: string }> }).results[0]?.id;
  };

  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { ARBITER_EMBEDDER: 'local', ARBITER_LOG_LEVEL: 'silent' } });
    key = (await t.newAccount()).key;
    const facts = consistentMemory();
    const ids = new Map<MemoryFact, string>();
    for (const fact of facts) {
      const stored = await store(fact.claim);
      ids.set(fact, stored.id);
      m.stores++;
      if (stored.conflicts.length > 0) {
        m.storesWithConflict++;
        if (m.conflictExamples.length < 5)
          m.conflictExamples.push(`${fact.claim} vs ${stored.conflicts[0]!.claim}`);
      }
    }
    for (const fact of sample(facts, STATEMENTS)) {
      m.trueSent++;
      const verdict = await say(fact.restatement);
      if (verdict.error?.code === 'CONFLICT_DETECTED') {
        m.trueRefused++;
        if (m.refusedExamples.length < 5) m.refusedExamples.push(fact.restatement);
      }
    }
    for (const fact of sample(facts, STATEMENTS, 1)) {
      m.falseSent++;
      const verdict = await say(fact.falsehood);
      if (verdict.error?.code === 'CONFLICT_DETECTED') m.falseCaught++;
      else if (m.missedExamples.length < 5) m.missedExamples.push(fact.falsehood);
    }
    const before = new Map<MemoryFact, string | undefined>();
    for (const fact of facts) {
      const first = await firstAnswer(fact.question);
      before.set(fact, first);
      if (first === ids.get(fact)) m.answeredFirstBefore++;
    }
    const corrected = new Set(sample(facts, SUPERSEDED, 3));
    const replacements = new Map<MemoryFact, string>();
    for (const fact of corrected) {
      const stored = await store(fact.replacement, 'supersede');
      replacements.set(fact, stored.id);
      m.superseded++;
      if (stored.superseded.length === 1 && stored.superseded[0] === ids.get(fact)) m.supersededOnlyOwn++;
      else if (m.supersedeExamples.length < 5)
        m.supersedeExamples.push(`${fact.replacement} superseded ${stored.superseded.length}`);
    }
    for (const fact of facts) {
      const first = await firstAnswer(fact.question);
      if (corrected.has(fact)) {
        if (first === replacements.get(fact)) m.supersededFirst++;
        else if (m.supersedeExamples.length < 10) m.supersedeExamples.push(`not first: ${fact.question}`);
      } else {
        m.others++;
        if (first === before.get(fact)) m.othersUnchanged++;
        else if (m.changedExamples.length < 5) m.changedExamples.push(fact.question);
      }
    }
    console.log(`consistent memory on ${dialect}: ${JSON.stringify(m, null, 1)}`);
  }, 1_200_000);
  afterAll(() => t.close());

  it('reports a conflict for at most 1 % of the stores of true facts', () => {
    expect(m.stores).toBeGreaterThanOrEqual(500);
    expect(m.storesWithConflict / m.stores).toBeLessThanOrEqual(0.01);
  });

  it('refuses at most 1 % of true statements and catches at least 95 % of false ones', () => {
    expect(m.trueRefused / m.trueSent).toBeLessThanOrEqual(0.01);
    expect(m.falseCaught / m.falseSent).toBeGreaterThanOrEqual(0.95);
  });

  it('puts each superseded answer first, replacing only its own subject, and changes no other answer', () => {
    expect(m.supersededOnlyOwn).toBe(m.superseded);
    expect(m.supersededFirst).toBe(m.superseded);
    expect(m.othersUnchanged).toBe(m.others);
  });
});
