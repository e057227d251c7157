// Measures which SQL parsers read the statements of each dialect, and what a statement costs,
// so the verdict engine's SQL analyzer can pick parsers by coverage rather than by reputation.
// Usage: npx tsx scripts/compare-sql-parsers.ts [sharedDataDir] [--candidates <node_modules>]
// `--candidates` names a node_modules folder holding parsers that are not dependencies
// (dt-sql-parser, sql-parser-cst), to measure them without installing them here.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { init as sqlparserInit, parse as sqlparserParse } from '@guanmingchiu/sqlparser-ts';
import { loadModule, parseSync as pgParseSync } from 'libpg-query';
import nodeSqlParser from 'node-sql-parser';
import { parse as pgsqlAstParse } from 'pgsql-ast-parser';
import type { SqlDialect } from '../src/domains/verdict/catalog.ts';
import { DIALECT_SAMPLES, type DialectSample } from './sql-dialect-samples.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const candidatesAt = args.indexOf('--candidates');
const candidatesDir = candidatesAt >= 0 ? args.splice(candidatesAt, 2)[1] : undefined;
const dataDir = resolve(args[0] ?? resolve(repoRoot, '../shared/data'));

/** A parser's reading of a batch: how many statements it found, or undefined when it rejects it. */
type Reader = (sql: string, dialect: SqlDialect | undefined) => number | undefined;

interface Parser {
  name: string;
  dialects: ReadonlySet<SqlDialect | 'any'>;
  read: Reader;
}

function attempt(fn: () => number): number | undefined {
  try {
    return fn();
  } catch {
    return undefined;
  }
}

const nodeSqlDatabase: Record<SqlDialect, string> = {
  postgres: 'postgresql',
  mysql: 'mysql',
  mariadb: 'mariadb',
  sqlite: 'sqlite',
  mssql: 'transactsql',
  bigquery: 'bigquery',
  snowflake: 'snowflake',
};

const sqlparserDialect: Record<SqlDialect, string> = {
  postgres: 'postgresql',
  mysql: 'mysql',
  mariadb: 'mysql',
  sqlite: 'sqlite',
  mssql: 'mssql',
  bigquery: 'bigquery',
  snowflake: 'snowflake',
};

const ALL: ReadonlySet<SqlDialect | 'any'> = new Set(['any']);
const sqlParser = new nodeSqlParser.Parser();

const parsers: Parser[] = [
  {
    name: 'libpg-query',
    dialects: ALL,
    read: (sql) => attempt(() => (pgParseSync(sql) as { stmts?: unknown[] }).stmts?.length ?? 0),
  },
  { name: 'pgsql-ast-parser', dialects: ALL, read: (sql) => attempt(() => pgsqlAstParse(sql).length) },
  {
    name: 'node-sql-parser',
    dialects: ALL,
    read: (sql, dialect) =>
      attempt(() => {
        const ast = sqlParser.astify(sql, { database: nodeSqlDatabase[dialect ?? 'postgres'] });
        return Array.isArray(ast) ? ast.length : 1;
      }),
  },
  {
    name: 'sqlparser-rs',
    dialects: ALL,
    read: (sql, dialect) =>
      attempt(() => sqlparserParse(sql, sqlparserDialect[dialect ?? 'postgres'] as never).length),
  },
];

/** Parsers that are not dependencies, measured when `--candidates` points at them. */
async function optionalParsers(): Promise<{ loaded: Parser[]; missing: string[] }> {
  const loaded: Parser[] = [];
  const missing: string[] = [];
  const from = createRequire(
    candidatesDir ? resolve(candidatesDir, 'x.js') : resolve(repoRoot, 'package.json'),
  );
  const load = async (name: string): Promise<Record<string, unknown> | undefined> => {
    try {
      const path = from.resolve(name);
      return (await import(pathToFileURL(path).href)) as Record<string, unknown>;
    } catch {
      missing.push(name);
      return undefined;
    }
  };
  const dt = await load('dt-sql-parser');
  if (dt) {
    type Validator = {
      validate(sql: string): unknown[];
      splitSQLByStatement?(sql: string): unknown[] | null;
    };
    const mysql = new (dt['MySQL'] as new () => Validator)();
    const postgres = new (dt['PostgreSQL'] as new () => Validator)();
    loaded.push({
      name: 'dt-sql-parser',
      dialects: new Set(['mysql', 'mariadb', 'postgres']),
      read: (sql, dialect) => {
        const parser = dialect === 'postgres' ? postgres : mysql;
        // Its ANTLR error listener prints every syntax error.
        const { error, log } = console;
        console.error = console.log = () => {};
        try {
          if (parser.validate(sql).length > 0) return undefined;
          return parser.splitSQLByStatement?.(sql)?.length ?? 1;
        } catch {
          return undefined;
        } finally {
          console.error = error;
          console.log = log;
        }
      },
    });
  }
  const cst = await load('sql-parser-cst');
  if (cst) {
    const parse = cst['parse'] as (
      sql: string,
      options: { dialect: string },
    ) => { statements: { type: string }[] };
    const cstDialect: Partial<Record<SqlDialect, string>> = {
      mysql: 'mysql',
      mariadb: 'mariadb',
      sqlite: 'sqlite',
      bigquery: 'bigquery',
      postgres: 'postgresql',
    };
    loaded.push({
      name: 'sql-parser-cst (GPL)',
      dialects: new Set(Object.keys(cstDialect) as SqlDialect[]),
      read: (sql, dialect) =>
        attempt(
          () =>
            parse(sql, { dialect: cstDialect[dialect ?? 'postgres'] ?? 'sqlite' }).statements.filter(
              (s) => s.type !== 'empty',
            ).length,
        ),
    });
  }
  return { loaded, missing };
}

function supports(parser: Parser, dialect: SqlDialect): boolean {
  return parser.dialects.has('any') || parser.dialects.has(dialect);
}

/** Mean cost of one read of each sample, in microseconds, over enough repetitions to be stable. */
function cost(parser: Parser, samples: readonly DialectSample[], dialect: SqlDialect | undefined): number {
  for (const sample of samples) parser.read(sample.sql, dialect);
  let rounds = 0;
  const start = performance.now();
  do {
    for (const sample of samples) parser.read(sample.sql, dialect);
    rounds++;
  } while (performance.now() - start < 200 && rounds < 200);
  return ((performance.now() - start) * 1000) / (rounds * samples.length);
}

function readsRight(parser: Parser, sample: DialectSample, dialect: SqlDialect | undefined): boolean {
  const count = parser.read(sample.sql, dialect);
  return count !== undefined && (sample.statements === undefined || count === sample.statements);
}

interface CorpusSample {
  sql: string;
  dialect?: SqlDialect;
}

function identitySamples(): CorpusSample[] {
  const text = readFileSync(resolve(dataDir, 'raw/sqlglot/tests/fixtures/identity.sql'), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((sql) => ({ sql }));
}

function spiderSamples(): CorpusSample[] {
  const text = readFileSync(resolve(dataDir, 'raw/spider/evaluation_examples/dev.sql'), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.startsWith('SQL:'))
    .map((line) => ({ sql: line.slice(4).trim(), dialect: 'sqlite' }));
}

function corpusSamples(): CorpusSample[] {
  const text = readFileSync(resolve(dataDir, 'verdict/dev.jsonl'), 'utf8');
  const samples: CorpusSample[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const row = JSON.parse(line) as { action: string; payload: { sql?: unknown; dialect?: unknown } };
    if (row.action !== 'db.query' || typeof row.payload.sql !== 'string') continue;
    const dialect = row.payload.dialect;
    const known = typeof dialect === 'string' && dialect in nodeSqlDatabase;
    samples.push(known ? { sql: row.payload.sql, dialect: dialect as SqlDialect } : { sql: row.payload.sql });
  }
  return samples;
}

function pct(n: number, of: number): string {
  return `${((n / of) * 100).toFixed(0)}%`.padStart(5);
}

async function main(): Promise<void> {
  await loadModule();
  await sqlparserInit();
  const { loaded, missing } = await optionalParsers();
  const all = [...parsers, ...loaded];
  if (missing.length > 0)
    console.log(`not measured (not installed; see --candidates): ${missing.join(', ')}\n`);

  console.log(
    'Dialect samples: read right (accepted, with the right number of statements) / samples, µs a statement',
  );
  const width = Math.max(...all.map((p) => p.name.length)) + 2;
  console.log(['dialect'.padEnd(10), ...all.map((p) => p.name.padStart(width))].join(''));
  for (const [dialect, samples] of Object.entries(DIALECT_SAMPLES) as [SqlDialect, DialectSample[]][]) {
    const cells = all.map((parser) => {
      if (!supports(parser, dialect)) return '—'.padStart(width);
      const right = samples.filter((sample) => readsRight(parser, sample, dialect)).length;
      const us = cost(parser, samples, dialect);
      return `${right}/${samples.length} ${us.toFixed(0).padStart(4)}µs`.padStart(width);
    });
    console.log([dialect.padEnd(10), ...cells].join(''));
  }
  console.log('\nMisread samples, per dialect and parser:');
  for (const [dialect, samples] of Object.entries(DIALECT_SAMPLES) as [SqlDialect, DialectSample[]][]) {
    for (const parser of all) {
      if (!supports(parser, dialect)) continue;
      const wrong = samples.filter((sample) => !readsRight(parser, sample, dialect));
      if (wrong.length === 0) continue;
      console.log(
        `  ${dialect} ${parser.name}: ${wrong.map((w) => JSON.stringify(w.sql.slice(0, 48))).join(', ')}`,
      );
    }
  }

  console.log('\nCorpora: accepted / samples (each sample in its own dialect, PostgreSQL when none)');
  const corpora: Record<string, CorpusSample[]> = {
    'sqlglot identity.sql': identitySamples(),
    'spider dev.sql (sqlite)': spiderSamples(),
    'verdict dev.jsonl db.query': corpusSamples(),
  };
  console.log(['corpus'.padEnd(28), 'n'.padStart(6), ...all.map((p) => p.name.padStart(width))].join(''));
  for (const [corpus, samples] of Object.entries(corpora)) {
    const cells = all.map((parser) => {
      const usable = samples.filter((s) => supports(parser, s.dialect ?? 'postgres'));
      const ok = usable.filter((s) => parser.read(s.sql, s.dialect) !== undefined).length;
      return (usable.length === 0 ? '—' : pct(ok, samples.length)).padStart(width);
    });
    console.log([corpus.padEnd(28), String(samples.length).padStart(6), ...cells].join(''));
  }
}

await main();
