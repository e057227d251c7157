// Measures which SQL parsers accept the statements of the shared corpora, so the verdict
// engine's SQL analyzer can pick parsers by coverage rather than by reputation.
// Usage: npx tsx scripts/compare-sql-parsers.ts [sharedDataDir]
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadModule, parseSync as pgParseSync } from 'libpg-query';
import nodeSqlParser from 'node-sql-parser';
import { parse as pgsqlAstParse } from 'pgsql-ast-parser';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = resolve(process.argv[2] ?? resolve(repoRoot, '../shared/data'));

interface Sample {
  sql: string;
  dialect?: string;
}

function identitySamples(): Sample[] {
  const text = readFileSync(resolve(dataDir, 'raw/sqlglot/tests/fixtures/identity.sql'), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((sql) => ({ sql }));
}

function spiderSamples(): Sample[] {
  const text = readFileSync(resolve(dataDir, 'raw/spider/evaluation_examples/dev.sql'), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.startsWith('SQL:'))
    .map((line) => ({ sql: line.slice(4).trim(), dialect: 'sqlite' }));
}

function corpusSamples(): Sample[] {
  const text = readFileSync(resolve(dataDir, 'verdict/dev.jsonl'), 'utf8');
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const row = JSON.parse(line) as { action: string; payload: { sql?: unknown; dialect?: unknown } };
    if (row.action !== 'db.query' || typeof row.payload.sql !== 'string') continue;
    const dialect = typeof row.payload.dialect === 'string' ? row.payload.dialect : undefined;
    samples.push(dialect === undefined ? { sql: row.payload.sql } : { sql: row.payload.sql, dialect });
  }
  return samples;
}

const nodeSqlDatabase: Record<string, string> = {
  postgres: 'postgresql',
  mysql: 'mysql',
  sqlite: 'sqlite',
  mssql: 'transactsql',
};

const sqlParser = new nodeSqlParser.Parser();

function accepts(fn: () => unknown): boolean {
  try {
    fn();
    return true;
  } catch {
    return false;
  }
}

type ParserName = 'libpg-query' | 'pgsql-ast-parser' | 'node-sql-parser(dialect)' | 'node-sql-parser(any)';

const parsers: Record<ParserName, (s: Sample) => boolean> = {
  'libpg-query': (s) => accepts(() => pgParseSync(s.sql)),
  'pgsql-ast-parser': (s) => accepts(() => pgsqlAstParse(s.sql)),
  'node-sql-parser(dialect)': (s) =>
    accepts(() =>
      sqlParser.astify(s.sql, { database: nodeSqlDatabase[s.dialect ?? 'postgres'] ?? 'postgresql' }),
    ),
  'node-sql-parser(any)': (s) =>
    ['postgresql', 'mysql', 'sqlite', 'transactsql'].some((database) =>
      accepts(() => sqlParser.astify(s.sql, { database })),
    ),
};

async function main(): Promise<void> {
  await loadModule();
  const corpora: Record<string, Sample[]> = {
    'sqlglot identity.sql': identitySamples(),
    'spider dev.sql': spiderSamples(),
    'verdict dev.jsonl db.query': corpusSamples(),
  };
  const names = Object.keys(parsers) as ParserName[];
  const header = ['corpus', 'n', ...names, 'libpg|nsp(any)'];
  console.log(header.join('\t'));
  for (const [corpus, samples] of Object.entries(corpora)) {
    const counts = new Map<string, number>();
    for (const sample of samples) {
      const ok = new Map<string, boolean>();
      for (const name of names) {
        const accepted = parsers[name](sample);
        ok.set(name, accepted);
        if (accepted) counts.set(name, (counts.get(name) ?? 0) + 1);
      }
      if (ok.get('libpg-query') || ok.get('node-sql-parser(any)')) {
        counts.set('combined', (counts.get('combined') ?? 0) + 1);
      }
    }
    const pct = (n: number | undefined) => `${(((n ?? 0) / samples.length) * 100).toFixed(1)}%`;
    console.log(
      [
        corpus,
        samples.length,
        ...names.map((name) => pct(counts.get(name))),
        pct(counts.get('combined')),
      ].join('\t'),
    );
  }
}

await main();
