import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { checkDomainImports, checkHttpImports, checkSqlPlacement } from '../scripts/check-domain-imports.ts';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const script = path.join(repo, 'scripts/check-domain-imports.ts');

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'domain-imports-'));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  roots.push(root);
  return root;
}
const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const DOMAIN_B = {
  'src/domains/b/index.ts': "export { open } from './internal.ts';\n",
  'src/domains/b/internal.ts': 'export const open = 1;\nexport type Shut = 2;\n',
  'src/domains/b/sub/deep.ts': 'export const deep = 1;\n',
  'src/domains/b/data.json': '{}\n',
};

describe('check-domain-imports', () => {
  it('reports every way of reaching into another domain, with file:line and the door to use', () => {
    const root = tree({
      ...DOMAIN_B,
      'src/domains/a/service.ts': [
        "import { open } from '../b/internal.ts';",
        "import type { Shut } from '../b/internal.ts';",
        "export { deep } from '../b/sub/deep.ts';",
        "const later = () => import('../b/internal.ts');",
        "type Later = typeof import('../b/internal.ts');",
        "const data = new URL('../b/data.json', import.meta.url);",
        'export const all = [open, later, data] as unknown as [Shut, Later];',
      ].join('\n'),
      'src/domains/a/nested/reader.ts':
        "import { open } from '../../b/internal.ts';\nexport const x = open;\n",
      'src/http/route.ts': "import { open } from '../domains/b/internal.ts';\nexport const y = open;\n",
    });
    const found = checkDomainImports(root).map((v) => `${v.file}:${v.line} ${v.specifier} -> ${v.allowed}`);
    expect(found.sort()).toEqual(
      [
        'src/domains/a/service.ts:1 ../b/internal.ts -> ../b/index.ts',
        'src/domains/a/service.ts:2 ../b/internal.ts -> ../b/index.ts',
        'src/domains/a/service.ts:3 ../b/sub/deep.ts -> ../b/index.ts',
        'src/domains/a/service.ts:4 ../b/internal.ts -> ../b/index.ts',
        'src/domains/a/service.ts:5 ../b/internal.ts -> ../b/index.ts',
        'src/domains/a/service.ts:6 ../b/data.json -> ../b/index.ts',
        'src/domains/a/nested/reader.ts:1 ../../b/internal.ts -> ../../b/index.ts',
        'src/http/route.ts:1 ../domains/b/internal.ts -> ../domains/b/index.ts',
      ].sort(),
    );
  });

  it('allows the door, a domain its own files, the composition roots and tests', () => {
    const root = tree({
      ...DOMAIN_B,
      'src/domains/a/service.ts': "import { open } from '../b/index.ts';\nexport const x = open;\n",
      'src/domains/b/other.ts':
        "import { deep } from './sub/deep.ts';\nexport { open } from './internal.ts';\nexport const d = deep;\n",
      'src/domains/a/service.test.ts': "import { open } from '../b/internal.ts';\nexport const t = open;\n",
      'src/container.ts': "import { open } from './domains/b/internal.ts';\nexport const c = open;\n",
      'src/app.ts': "import { deep } from './domains/b/sub/deep.ts';\nexport const a = deep;\n",
      'src/writer-thread/jobs.ts':
        "import { open } from '../domains/b/internal.ts';\nexport const j = open;\n",
      'src/lib/thing.ts': "import { open } from '../domains/b/index.ts';\nexport const l = open;\n",
    });
    expect(checkDomainImports(root)).toEqual([]);
  });

  it('fails the command on a violation and prints where and what to import instead', () => {
    const root = tree({
      ...DOMAIN_B,
      'src/domains/a/service.ts':
        "// a comment first\nimport { open } from '../b/internal.ts';\nexport const x = open;\n",
    });
    const run = spawnSync(process.execPath, ['--import', 'tsx', script, root], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      "src/domains/a/service.ts:2: '../b/internal.ts' is inside domain 'b'; import from '../b/index.ts'",
    );
  });

  it('finds nothing in this repository', () => {
    expect(checkDomainImports(repo).map((v) => `${v.file}:${v.line} ${v.specifier}`)).toEqual([]);
  });
});

describe('SQL only in repositories', () => {
  const QUERY = "export const q = (db: any) => db.selectFrom('t').selectAll().execute();\n";
  it('reports queries and sql templates outside repo.ts, db/ and storage/', () => {
    const root = tree({
      'src/domains/a/service.ts': QUERY,
      'src/domains/a/limits.ts': [
        "import { sql } from 'kysely';",
        'export const w = (trx: any) => trx.insertInto("t").values({}).execute();',
        'export const u = (trx: any) => trx.updateTable("t").set({}).execute();',
        'export const d = (trx: any) => trx.deleteFrom("t").execute();',
        'export const s = sql`select 1`;',
      ].join('\n'),
    });
    expect(checkSqlPlacement(root).map((v) => `${v.file}:${v.line} ${v.what}`)).toEqual([
      'src/domains/a/limits.ts:2 insertInto',
      'src/domains/a/limits.ts:3 updateTable',
      'src/domains/a/limits.ts:4 deleteFrom',
      'src/domains/a/limits.ts:5 sql',
      'src/domains/a/service.ts:1 selectFrom',
    ]);
  });

  it('allows repo.ts, db/ and storage/ folders and tests', () => {
    const root = tree({
      'src/domains/a/repo.ts': QUERY,
      'src/domains/a/storage/index.ts': QUERY,
      'src/db/helpers.ts': QUERY,
      'src/domains/a/service.test.ts': QUERY,
      'src/domains/a/words.ts':
        '// selectFrom in a comment, and `sql` in a string\nexport const w = "deleteFrom";\n',
    });
    expect(checkSqlPlacement(root)).toEqual([]);
  });

  it('finds nothing in this repository', () => {
    expect(checkSqlPlacement(repo).map((v) => `${v.file}:${v.line} ${v.what}`)).toEqual([]);
  });
});

describe('domains do not import src/http', () => {
  it('allows routes.ts and schemas.ts only', () => {
    const root = tree({
      'src/http/auth.ts': 'export const a = 1;\n',
      'src/domains/a/routes.ts': "import { a } from '../../http/auth.ts';\nexport const r = a;\n",
      'src/domains/a/schemas.ts': "import { a } from '../../http/auth.ts';\nexport const s = a;\n",
      'src/domains/a/service.ts': "import { a } from '../../http/auth.ts';\nexport const x = a;\n",
    });
    expect(checkHttpImports(root).map((v) => `${v.file}:${v.line} ${v.specifier}`)).toEqual([
      'src/domains/a/service.ts:1 ../../http/auth.ts',
    ]);
  });

  it('finds nothing in this repository', () => {
    expect(checkHttpImports(repo)).toEqual([]);
  });
});
