import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { checkImportCircles, describeCircle } from '../scripts/check-import-circles.ts';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const script = path.join(repo, 'scripts/check-import-circles.ts');

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const TSCONFIG = JSON.stringify({
  compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', allowImportingTsExtensions: true },
});

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'import-circles-'));
  roots.push(root);
  for (const [file, text] of Object.entries({ 'tsconfig.json': TSCONFIG, ...files })) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

const run = (root: string) =>
  spawnSync(process.execPath, ['--import', 'tsx', script, root], { encoding: 'utf8' });

describe('check-import-circles', () => {
  it('prints a circle as a path of files, type-only and `.js` imports resolved as tsc does', () => {
    const root = tree({
      'src/a.ts': "import { b } from './b.js';\nexport const a = b;\n",
      'src/b.ts': "import type { C } from './c/index.ts';\nexport const b: C = 1;\n",
      'src/c/index.ts': "export type { C } from '../d.ts';\n",
      'src/d.ts': "import { a } from './a.ts';\nexport type C = typeof a;\n",
      'src/leaf.ts': "import { a } from './a.ts';\nexport const leaf = a;\n",
      'src/self.ts': "export const self = () => import('./self.ts');\n",
      'packages/p/src/x.ts': "import { y } from './y.ts';\nexport const x = y;\n",
      'packages/p/src/y.ts': "export type Y = typeof import('./x.ts');\nexport const y = 1;\n",
      'src/a.test.ts': "import { a } from './a.ts';\nexport const t = a;\n",
    });
    const { files, domains } = checkImportCircles(root);
    expect(files.map(describeCircle)).toEqual([
      'src/self.ts → src/self.ts',
      'packages/p/src/x.ts → packages/p/src/y.ts → packages/p/src/x.ts',
      'src/a.ts → src/b.ts → src/c/index.ts → src/d.ts → src/a.ts',
    ]);
    expect(domains).toEqual([]);
    const result = run(root);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('src/a.ts → src/b.ts → src/c/index.ts → src/d.ts → src/a.ts');
  });

  it('finds two domains that import each other through their doors, naming the imports', () => {
    const root = tree({
      'src/domains/a/index.ts': "export type { A } from './types.ts';\n",
      'src/domains/a/types.ts': 'export type A = 1;\n',
      'src/domains/a/service.ts': "import { b } from '../b/index.ts';\nexport const a = () => b;\n",
      'src/domains/b/index.ts': "export { b } from './service.ts';\n",
      'src/domains/b/service.ts': "import type { A } from '../a/index.ts';\nexport const b: A = 1;\n",
    });
    expect(checkImportCircles(root)).toEqual({
      files: [],
      domains: [
        [
          'src/domains/a/service.ts',
          'src/domains/b/index.ts',
          '⋯',
          'src/domains/b/service.ts',
          'src/domains/a/index.ts',
          '⋯',
          'src/domains/a/service.ts',
        ],
      ],
    });
  });

  it('passes a tree whose arrows all point down, and a route reaching auth that reads a domain', () => {
    const root = tree({
      'src/config.ts': "import { shape } from './lib/shape.ts';\nexport const config = shape;\n",
      'src/lib/shape.ts': 'export const shape = 1;\n',
      'src/domains/a/index.ts': "export { a } from './service.ts';\n",
      'src/domains/a/service.ts': "import { config } from '../../config.ts';\nexport const a = config;\n",
      'src/domains/a/routes.ts': "import { auth } from '../../http/auth.ts';\nexport const r = auth;\n",
      'src/domains/b/index.ts': "import { a } from '../a/index.ts';\nexport const b = a;\n",
      'src/domains/b/routes.ts': "import { auth } from '../../http/auth.ts';\nexport const r = auth;\n",
      'src/http/auth.ts': "import { b } from '../domains/b/index.ts';\nexport const auth = b;\n",
    });
    expect(checkImportCircles(root)).toEqual({ files: [], domains: [] });
    const result = run(root);
    expect(result.status).toBe(0);
    expect(result.stderr).toBe('');
  });
});
