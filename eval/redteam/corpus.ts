// Loads and validates the red-team corpus (eval/redteam/*.jsonl), shared by
// scripts/eval-redteam.ts and test/verdict/redteam-corpus.test.ts.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CORPUS_DIR = dirname(fileURLToPath(import.meta.url));

/** Codes a case may expect; null means the action is safe. */
export const EXPECTABLE_CODES = [
  'FILESYSTEM_DENIED',
  'DEST_MUTATION',
  'POLICY_VIOLATION',
  'EXFILTRATION_BLOCKED',
] as const;
export type ExpectedCode = (typeof EXPECTABLE_CODES)[number];

/** The "judge what would run" classes. */
export const RUN_CLASSES = [
  'shell-expansion',
  'shell-nesting',
  'inline-interpreter',
  'decoders',
  'opaque',
  'container-escape',
  'reverse-shell',
  'sql-dialects',
  'sql-server-files',
  'paths',
  'egress-destination',
  'egress-content',
  'budget',
] as const;

/** The tool-belt families (destructive operations of each tool). */
export const TOOL_FAMILIES = [
  'kubernetes',
  'iac',
  'cloud',
  'containers',
  'datastores',
  'git',
  'forges',
  'windows',
  'system',
] as const;

export type Area = 'what-would-run' | 'tool-belt';
export const AREA_MINIMUMS: Record<Area, number> = { 'what-would-run': 450, 'tool-belt': 330 };
export const MIN_BENIGN_SHARE = 0.4;

const runSet = new Set<string>(RUN_CLASSES);
const toolSet = new Set<string>(TOOL_FAMILIES);
const codeSet = new Set<string>(EXPECTABLE_CODES);

export function areaOf(cls: string): Area {
  return runSet.has(cls) ? 'what-would-run' : 'tool-belt';
}

export function isKnownClass(cls: string): boolean {
  return runSet.has(cls) || toolSet.has(cls);
}

/**
 * Builds a very large field without storing it: the expanded value of `payload[field]` is
 * `prefix + unit × times + payload[field]` (the stored value is the tail).
 */
export interface Repeat {
  field: string;
  unit: string;
  times: number;
  prefix?: string;
}

export interface Case {
  id: string;
  class: string;
  action: string;
  payload: Record<string, unknown>;
  expect: ExpectedCode | null;
  why: string;
  repeat?: Repeat;
  /** Where the row came from: file name and 1-based line. */
  file: string;
  line: number;
}

const FIELDS = new Set(['id', 'class', 'action', 'payload', 'expect', 'why', 'repeat']);

export class CorpusError extends Error {}

function fail(file: string, line: number, message: string): never {
  throw new CorpusError(`${file}:${line}: ${message}`);
}

function parseRow(file: string, line: number, text: string): Case {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    fail(file, line, `not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) fail(file, line, 'row is not an object');
  const row = raw as Record<string, unknown>;
  for (const key of Object.keys(row)) if (!FIELDS.has(key)) fail(file, line, `unknown field "${key}"`);
  for (const key of ['id', 'class', 'action', 'why'] as const) {
    if (typeof row[key] !== 'string' || (row[key] as string).trim() === '') {
      fail(file, line, `field "${key}" must be a non-empty string`);
    }
  }
  const cls = row['class'] as string;
  if (!isKnownClass(cls)) fail(file, line, `unknown class "${cls}"`);
  if (!('expect' in row)) fail(file, line, 'missing field "expect"');
  const expect = row['expect'];
  if (expect !== null && (typeof expect !== 'string' || !codeSet.has(expect))) {
    fail(
      file,
      line,
      `expect must be null or one of ${EXPECTABLE_CODES.join(', ')} (got ${JSON.stringify(expect)})`,
    );
  }
  const payload = row['payload'];
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    fail(file, line, 'payload must be an object');
  }
  const result: Case = {
    id: row['id'] as string,
    class: cls,
    action: row['action'] as string,
    payload: payload as Record<string, unknown>,
    expect: expect as ExpectedCode | null,
    why: row['why'] as string,
    file,
    line,
  };
  if (row['repeat'] !== undefined) {
    const r = row['repeat'] as Record<string, unknown>;
    if (
      typeof r !== 'object' ||
      r === null ||
      typeof r['field'] !== 'string' ||
      typeof r['unit'] !== 'string' ||
      r['unit'] === '' ||
      typeof r['times'] !== 'number' ||
      !Number.isInteger(r['times']) ||
      r['times'] < 1 ||
      (r['prefix'] !== undefined && typeof r['prefix'] !== 'string')
    ) {
      fail(file, line, 'repeat must be {field, unit (non-empty), times (integer ≥ 1), prefix?}');
    }
    const tail = result.payload[r['field'] as string];
    if (typeof tail !== 'string')
      fail(file, line, `repeat.field "${String(r['field'])}" must name a string field`);
    result.repeat = r as unknown as Repeat;
  }
  return result;
}

/** Reads every eval/redteam/*.jsonl; throws CorpusError naming file and line on a bad row. */
export function loadCorpus(dir: string = CORPUS_DIR): Case[] {
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .sort();
  const cases: Case[] = [];
  const seen = new Map<string, string>();
  for (const name of files) {
    const lines = readFileSync(join(dir, name), 'utf8').split('\n');
    lines.forEach((text, index) => {
      if (text.trim() === '') return;
      const row = parseRow(name, index + 1, text);
      const earlier = seen.get(row.id);
      if (earlier !== undefined) fail(name, index + 1, `duplicate id "${row.id}" (first at ${earlier})`);
      seen.set(row.id, `${name}:${index + 1}`);
      cases.push(row);
    });
  }
  return cases;
}

/** The payload to judge, with any repeat generator expanded. */
export function expandPayload(row: Case): Record<string, unknown> {
  if (row.repeat === undefined) return row.payload;
  const { field, unit, times, prefix } = row.repeat;
  return { ...row.payload, [field]: (prefix ?? '') + unit.repeat(times) + String(row.payload[field]) };
}

export const REPO_ROOT = resolve(CORPUS_DIR, '..', '..');
