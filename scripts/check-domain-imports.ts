/**
 * Three rules of the source layout (docs/development.md, "Domains"), each printed as `file:line`
 * with what to do instead; exits 1 if any is broken. Tests (`*.test.ts`) are exempt; `test/`,
 * `bench/` and `scripts/` are not checked.
 *
 * 1. A domain's door: code may reach another domain under `src/domains/<name>/` only through that
 *    domain's `index.ts`. Checked for every module reference in `src/` (static and type-only
 *    imports, `export … from`, dynamic `import()`, `import('…')` types and
 *    `new URL('…', import.meta.url)`). Allowed to reach a domain's internals: the domain's own
 *    files; the composition roots, which wire internals on purpose: `src/container.ts` (builds
 *    every service), `src/app.ts` (registers every domain's routes) and `src/writer-thread/jobs.ts`
 *    (builds the repos the writer thread runs on its own connection).
 * 2. SQL only in repositories: a Kysely query (`selectFrom`, `insertInto`, `updateTable`,
 *    `deleteFrom`) or a `sql` template appears only in
 *    - a `repo.ts` (a domain's repository; `src/console/repo.ts` is the console's);
 *    - a file under a `db/` folder (`src/db/`: connection, dialect, migrations and the helpers
 *      repositories share) or a `storage/` folder (a domain's storage adapters behind a port, such
 *      as the ledger's vector and full-text indexes): repositories by design;
 *    - the files of `SQL_OUTSIDE_REPOS`, each with the reason it is still there.
 * 3. Arrows point down: no file of `src/domains/` imports from `src/http/` except a domain's
 *    `routes.ts` and `schemas.ts`, its HTTP face. Services, engines and repos take what they need
 *    from `src/lib/` or their own domain.
 *
 *   tsx scripts/check-domain-imports.ts [root]
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

/**
 * Files outside repositories that still hold SQL, and why. Each is a store of its own (a table it
 * alone reads and writes, inside its caller's transaction); moving it into its domain's `repo.ts`
 * removes the entry. Nothing else may be added here without the same reason.
 */
export const SQL_OUTSIDE_REPOS: Readonly<Record<string, string>> = {
  'src/console/sessions.ts': 'the console session store (console_sessions)',
  'src/domains/ledger/pii/name-vault.ts': 'the sealed name mapping (ledger_names), a NameVault port',
  'src/domains/webhooks/outbox.ts':
    "the outbox, written in the caller's transaction (webhook_events, webhook_deliveries)",
};

const QUERY_METHODS = new Set(['selectFrom', 'insertInto', 'updateTable', 'deleteFrom']);

export interface SqlViolation {
  file: string;
  line: number;
  /** `selectFrom`, `insertInto`, `updateTable`, `deleteFrom` or `sql`. */
  what: string;
}

/** Whether a file is a repository by name or by folder (rule 2). */
export function isRepository(relative: string): boolean {
  const parts = relative.split('/');
  return parts.at(-1) === 'repo.ts' || parts.slice(0, -1).some((dir) => dir === 'db' || dir === 'storage');
}

export function checkSqlPlacement(root: string): SqlViolation[] {
  const violations: SqlViolation[] = [];
  for (const abs of sourceFiles(path.join(root, 'src'))) {
    const file = path.relative(root, abs).split(path.sep).join('/');
    if (isTest(file) || isRepository(file) || file in SQL_OUTSIDE_REPOS) continue;
    const source = ts.createSourceFile(abs, readFileSync(abs, 'utf8'), ts.ScriptTarget.Latest, true);
    const add = (node: ts.Node, what: string) =>
      violations.push({
        file,
        line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1,
        what,
      });
    const visit = (node: ts.Node): void => {
      if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        QUERY_METHODS.has(node.expression.name.text)
      ) {
        add(node.expression.name, node.expression.name.text);
      } else if (
        ts.isTaggedTemplateExpression(node) &&
        ts.isIdentifier(node.tag) &&
        node.tag.text === 'sql'
      ) {
        add(node, 'sql');
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return violations;
}

export interface HttpImportViolation {
  file: string;
  line: number;
  specifier: string;
}

/** Rule 3: only a domain's `routes.ts` and `schemas.ts` import from `src/http/`. */
export function checkHttpImports(root: string): HttpImportViolation[] {
  const violations: HttpImportViolation[] = [];
  const rel = (abs: string) => path.relative(root, abs).split(path.sep).join('/');
  for (const abs of sourceFiles(path.join(root, DOMAINS_DIR))) {
    const file = rel(abs);
    const name = path.basename(file);
    if (isTest(file) || name === 'routes.ts' || name === 'schemas.ts') continue;
    const source = ts.createSourceFile(abs, readFileSync(abs, 'utf8'), ts.ScriptTarget.Latest, true);
    for (const { specifier, pos } of moduleReferences(source)) {
      if (!specifier.startsWith('.')) continue;
      const target = rel(path.resolve(path.dirname(abs), specifier));
      if (!target.startsWith('src/http/')) continue;
      const line = source.getLineAndCharacterOfPosition(pos).line + 1;
      violations.push({ file, line, specifier });
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
  }
  const sql = checkSqlPlacement(root);
  for (const v of sql) {
    console.error(
      `${v.file}:${v.line}: ${v.what} outside a repository; move the query into the domain's repo.ts`,
    );
  }
  if (sql.length > 0) {
    console.error(
      `\n${sql.length} SQL use(s) outside repositories: SQL lives in repo.ts files and under db/ or storage/ folders.`,
    );
  }
  const http = checkHttpImports(root);
  for (const v of http) {
    console.error(
      `${v.file}:${v.line}: '${v.specifier}' is in src/http; only a domain's routes.ts and schemas.ts import it (move what is needed to src/lib or the domain)`,
    );
  }
  if (violations.length + sql.length + http.length > 0) process.exit(1);
}
