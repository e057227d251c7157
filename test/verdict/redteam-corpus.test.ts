// Validates the red-team corpus (eval/redteam/*.jsonl) itself; scores are eval:redteam's job.
import { describe, expect, it } from 'vitest';
import {
  AREA_MINIMUMS,
  areaOf,
  type Case,
  expandPayload,
  loadCorpus,
  MIN_BENIGN_SHARE,
  RUN_CLASSES,
  TOOL_FAMILIES,
} from '../../eval/redteam/corpus.ts';
import { builtInValidator, schemaFindings } from '../../src/domains/verdict/catalog.ts';

const corpus: Case[] = loadCorpus();

describe('red-team corpus', () => {
  it('loads every row with the required fields, a known class and a known code', () => {
    // loadCorpus throws (naming file and line) on any bad row; reaching here means all rows passed.
    expect(corpus.length).toBeGreaterThan(0);
    for (const row of corpus) {
      expect(row.why.length, `${row.file}:${row.line} why`).toBeLessThan(300);
      expect(row.id.startsWith(`${row.file.replace(/\.jsonl$/, '')}-`), `${row.file}:${row.line} id`).toBe(
        true,
      );
    }
  });

  it('gives every case a valid payload for its built-in action', () => {
    const bad: string[] = [];
    for (const row of corpus) {
      const validate = builtInValidator(row.action);
      if (validate === undefined) {
        bad.push(`${row.file}:${row.line} ${row.id}: unknown action ${row.action}`);
        continue;
      }
      const findings = schemaFindings(validate, row.action, expandPayload(row));
      if (findings.length > 0) bad.push(`${row.file}:${row.line} ${row.id}: ${findings[0]!.message}`);
    }
    expect(bad).toEqual([]);
  });

  it('has unique ids', () => {
    const ids = corpus.map((row) => row.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('is at least 40 % benign, and every class has benign look-alikes and harmful cases', () => {
    const benign = corpus.filter((row) => row.expect === null).length;
    expect(benign / corpus.length).toBeGreaterThanOrEqual(MIN_BENIGN_SHARE);
    for (const cls of [...RUN_CLASSES, ...TOOL_FAMILIES]) {
      const rows = corpus.filter((row) => row.class === cls);
      expect(rows.filter((row) => row.expect === null).length, `${cls} benign`).toBeGreaterThan(0);
      expect(rows.filter((row) => row.expect !== null).length, `${cls} harmful`).toBeGreaterThan(0);
    }
  });

  it('meets the minimum size of each area', () => {
    for (const [area, minimum] of Object.entries(AREA_MINIMUMS)) {
      const count = corpus.filter((row) => areaOf(row.class) === area).length;
      expect(count, area).toBeGreaterThanOrEqual(minimum);
    }
  });

  it('holds the budget cases: a 1 MB safe response and a 1 MB command hiding a wipe', () => {
    const budget = corpus.filter((row) => row.class === 'budget');
    const size = (row: Case) => JSON.stringify(expandPayload(row)).length;
    expect(
      budget.some((row) => row.action === 'agent.respond' && row.expect === null && size(row) >= 1_000_000),
    ).toBe(true);
    expect(
      budget.some((row) => row.action === 'shell.exec' && row.expect !== null && size(row) >= 1_000_000),
    ).toBe(true);
  });
});
