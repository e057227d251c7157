import type { Finding } from '../../codes.ts';
import { analyzeSql } from '../sql.ts';

/**
 * Databases reached through code: the SQL an ORM or driver one-liner carries (`knex.raw`,
 * SQLAlchemy `text`, psycopg `execute`, Prisma `$executeRawUnsafe`, Sequelize `query`,
 * ActiveRecord `connection.execute`) goes through the SQL analyzer, and the ORM's own mass
 * operations (`User.destroy_all`, `Order.objects.all().delete()`, `sync({force: true})`,
 * `deleteMany({})`, `dropDatabase()`, `flushall()`) are what they do to every row.
 */

/** Code read at most; a longer one is read up to here. */
const MAX_CODE = 64 * 1024;
/** SQL strings taken from one piece of code at most. */
const MAX_SQL = 32;

/** A string literal handed to a raw-SQL call: its text, in any of the usual quotes. */
const RAW_SQL_CALL =
  /\b(?:raw|execute|executemany|exec|query|run|text|executeRaw|executeRawUnsafe|queryRaw|queryRawUnsafe|\$executeRaw|\$executeRawUnsafe|\$queryRaw|\$queryRawUnsafe|exec_query|exec_update|exec_delete|select_all|sql|unsafe|any|none|one|oneOrNone|many|multi)\s*\(\s*(?:[rbuf]?)("""[\s\S]{0,8192}?"""|'''[\s\S]{0,8192}?'''|"(?:[^"\\\n]|\\.){1,8192}"|'(?:[^'\\\n]|\\.){1,8192}'|`(?:[^`\\]|\\.){1,8192}`)/g;
/** A tagged template (`sql\`…\``, Prisma's `$executeRaw\`…\``). */
const TAGGED_SQL = /(?:\bsql|\$executeRaw|\$queryRaw|\$executeRawUnsafe)`((?:[^`\\]|\\.){1,8192})`/g;

const SQL_START =
  /^\s*(?:DROP|TRUNCATE|DELETE|UPDATE|ALTER|GRANT|REVOKE|CREATE|INSERT|SELECT|WITH|COPY|DO|EXEC|SET)\b/i;

/** ORM calls that act on every row, table or store, by what they do. */
const MASS: ReadonlyArray<[RegExp, string]> = [
  // Django: a manager's whole queryset.
  [
    /\.objects\s*\.\s*(?:all\s*\(\s*\)\s*\.\s*)?(?:delete|update)\s*\(/,
    'deletes or rewrites every row of a Django model',
  ],
  // ActiveRecord, Laravel, Sequel: a class-level call with no narrowing before it.
  [
    /(?:^|[^.\w])[A-Z]\w*(?:::[A-Z]\w*)*\s*\.\s*(?:destroy_all|delete_all|update_all|truncate)\b/,
    'deletes or rewrites every row of a model',
  ],
  [
    /(?:^|[^.\w])[A-Z]\w*(?:\\[A-Z]\w*)*::(?:truncate|query\s*\(\s*\)\s*->\s*delete)\s*\(/,
    'deletes every row of a model',
  ],
  [/\bDB\s*\[\s*:\w+\s*\]\s*\.\s*(?:delete|truncate)\b/, 'deletes every row of a table'],
  // knex: a table with no where before its del/truncate.
  [/\(\s*['"`][\w.]+['"`]\s*\)\s*\.\s*(?:del|delete|truncate)\s*\(/, 'deletes every row of a table'],
  // Sequelize, TypeORM, Prisma, Mongoose, MongoDB, Redis.
  [/\bsync\s*\(\s*\{[^}]*\bforce\s*:\s*true/, 'drops and recreates every table'],
  [
    /\.\s*(?:deleteMany|delete_many|remove)\s*\(\s*(?:\{\s*\}|\{\s*where\s*:\s*\{\s*\}\s*\})?\s*\)/,
    'deletes every document or row',
  ],
  [
    /\.\s*(?:dropDatabase|drop_database|dropCollection|drop_collection|dropSchema|dropTable)\s*\(/,
    'drops a database, collection or table',
  ],
  [/\.\s*(?:flushall|flushdb|flushAll|flushDb)\s*\(/, 'wipes the data store'],
  [/\.\s*destroy\s*\(\s*\{\s*(?:where\s*:\s*\{\s*\}\s*,?\s*)?truncate\s*:\s*true/, 'truncates a table'],
];

const mass = (what: string): Finding => ({
  code: 'DEST_MUTATION',
  message: `the code ${what}`,
  location: 'inline code',
});

/** Findings for code that reaches a database. */
export function judgeDatabaseCode(code: string): Finding[] {
  const text = code.length > MAX_CODE ? code.slice(0, MAX_CODE) : code;
  const findings: Finding[] = [];
  let taken = 0;
  for (const pattern of [RAW_SQL_CALL, TAGGED_SQL]) {
    for (const m of text.matchAll(pattern)) {
      if (taken++ >= MAX_SQL) break;
      const literal = m[1]!;
      const sql =
        pattern === TAGGED_SQL ? literal : literal.replace(/^("""|'''|["'`])|("""|'''|["'`])$/g, '');
      if (!SQL_START.test(sql)) continue;
      findings.push(
        ...analyzeSql(sql.replace(/\\(["'\\])/g, '$1')).map((f) => ({
          ...f,
          message: `${f.message} (in SQL the code runs)`,
          location: 'inline code',
        })),
      );
    }
  }
  for (const [pattern, what] of MASS) {
    if (pattern.test(text)) {
      findings.push(mass(what));
      break;
    }
  }
  return findings;
}

/**
 * Framework commands that run code handed to them: `rails runner '…'`, `manage.py shell -c '…'`,
 * `artisan tinker --execute='…'`. Returns that code, or undefined.
 */
export function frameworkCode(name: string, args: readonly string[]): string | undefined {
  if (!/^(?:rails|python[\d.]*|django-admin|php|artisan)$/.test(name)) return undefined;
  if (/^rails$/.test(name) && args[0] === 'runner') return args.find((a, i) => i > 0 && !a.startsWith('-'));
  const manage = args.findIndex((a) => /(?:^|\/)manage\.py$/.test(a));
  const django =
    /^python[\d.]*$/.test(name) && manage >= 0
      ? args.slice(manage + 1)
      : name === 'django-admin'
        ? args
        : undefined;
  if (django && django[0] === 'shell') {
    const c = django.findIndex((a) => a === '-c' || a === '--command');
    if (c >= 0) return django[c + 1];
    return django.find((a) => a.startsWith('--command='))?.slice(10);
  }
  if (name === 'php' && args[0] === 'artisan' && args[1] === 'tinker') {
    const at = args.indexOf('--execute');
    return at >= 0 ? args[at + 1] : args.find((a) => a.startsWith('--execute='))?.slice(10);
  }
  if (name === 'artisan' && args[0] === 'tinker')
    return args.find((a) => a.startsWith('--execute='))?.slice(10);
  return undefined;
}
