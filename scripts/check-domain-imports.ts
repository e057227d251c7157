/**
 * A domain's door: code may reach another domain under `src/domains/<name>/` only through that
 * domain's `index.ts`. Checked for every module reference in `src/` (static and type-only imports,
 * `export … from`, dynamic `import()`, `import('…')` types and `new URL('…', import.meta.url)`).
 *
 * Allowed to reach a domain's internals:
 * - the domain's own files;
 * - the composition roots, which wire internals on purpose: `src/container.ts` (builds every
 *   service), `src/app.ts` (registers every domain's routes) and `src/writer-thread/jobs.ts`
 *   (builds the repos the writer thread runs on its own connection);
 * - tests (`*.test.ts`); `test/`, `bench/` and `scripts/` are not checked.
 *
 *   tsx scripts/check-domain-imports.ts [root]
 * Prints `file:line` and the import to write instead for each violation; exits 1 if there is one.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const COMPOSITION_ROOTS = ['src/container.ts', 'src/app.ts', 'src/writer-thread/jobs.ts'];

export interface Violation {
  /** Importing file, relative to the root, with `/` separators. */
  file: string;
  line: number;
  specifier: string;
  /** The domain reached into. */
  domain: string;
  /** The specifier to write instead, from the importing file. */
  allowed: string;
}

const DOMAINS_DIR = 'src/domains';
const isTest = (file: string) => file.endsWith('.test.ts');

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (/\.(?:ts|mts|cts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) yield full;
  }
}

/** Every string that names a module or a file beside the code, with its position. */
export function moduleReferences(source: ts.SourceFile): { specifier: string; pos: number }[] {
  const found: { specifier: string; pos: number }[] = [];
  const add = (node: ts.Node | undefined) => {
    if (node && ts.isStringLiteralLike(node))
      found.push({ specifier: node.text, pos: node.getStart(source) });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node.arguments[0]);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal);
    } else if (
      ts.isNewExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'URL'
    ) {
      const [target, base] = node.arguments ?? [];
      if (base && ts.isPropertyAccessExpression(base) && ts.isMetaProperty(base.expression)) add(target);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** `src/domains/<name>/…` → `<name>`; anything else → undefined. */
function domainOf(relative: string): string | undefined {
  const parts = relative.split('/');
  return parts.length > 3 && parts[0] === 'src' && parts[1] === 'domains' ? parts[2] : undefined;
}

function isDoor(relative: string, domain: string): boolean {
  const inside = relative.slice(`${DOMAINS_DIR}/${domain}`.length);
  return inside === '/index.ts' || inside === '/index.js';
}

export function checkDomainImports(root: string): Violation[] {
  const violations: Violation[] = [];
  const rel = (abs: string) => path.relative(root, abs).split(path.sep).join('/');
  for (const abs of sourceFiles(path.join(root, 'src'))) {
    const file = rel(abs);
    if (isTest(file) || COMPOSITION_ROOTS.includes(file)) continue;
    const own = domainOf(file);
    const text = readFileSync(abs, 'utf8');
    const source = ts.createSourceFile(abs, text, ts.ScriptTarget.Latest, true);
    for (const { specifier, pos } of moduleReferences(source)) {
      if (!specifier.startsWith('./') && !specifier.startsWith('../')) continue;
      const target = rel(path.resolve(path.dirname(abs), specifier));
      const reached = domainOf(target);
      if (reached === undefined || reached === own || isDoor(target, reached)) continue;
      let allowed = path.relative(path.dirname(abs), path.join(root, DOMAINS_DIR, reached, 'index.ts'));
      allowed = allowed.split(path.sep).join('/');
      if (!allowed.startsWith('.')) allowed = `./${allowed}`;
      const line = source.getLineAndCharacterOfPosition(pos).line + 1;
      violations.push({ file, line, specifier, domain: reached, allowed });
    }
  }
  return violations;
}

export function describe(v: Violation): string {
  return `${v.file}:${v.line}: '${v.specifier}' is inside domain '${v.domain}'; import from '${v.allowed}' (export it there if it is missing)`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'));
  const violations = checkDomainImports(root);
  for (const v of violations) console.error(describe(v));
  if (violations.length > 0) {
    console.error(
      `\n${violations.length} import(s) reach into another domain. Code outside src/domains/<name>/ uses ` +
        `that domain through its index.ts only (composition roots: ${COMPOSITION_ROOTS.join(', ')}; tests are exempt).`,
    );
    process.exit(1);
  }
}
