/**
 * Import circles: fails when a module in `src/` or `packages/<name>/src/` can reach itself by
 * following imports. Arrows point down; two modules that need each other share a lower module.
 *
 * Every specifier is resolved with TypeScript's own module resolution and the project's
 * tsconfig.json, so `.js`/`.ts` extensions, `index.ts` doors and package `exports` resolve as
 * the compiler resolves them; only targets inside the checked folders count.
 *
 * Type-only imports count. They vanish at run time, so they cannot break module initialisation,
 * but a circle is a design fault before it is a runtime one: a type that two modules pass back
 * and forth belongs to neither, and a type-only edge today becomes a value edge with the next
 * change. Dynamic `import()` and a worker's `new URL('./worker.ts', import.meta.url)` count for
 * the same reason (references are read as `check-domain-imports.ts` reads them). Tests
 * (`*.test.ts`) are left out: no module imports a test.
 *
 *   tsx scripts/check-import-circles.ts [root]
 * Prints each circle as a path of files (`a.ts → b.ts → a.ts`); exits 1 if there is one.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { moduleReferences } from './check-domain-imports.ts';

/** Folders whose modules are checked, relative to the root; `*` matches one folder name. */
export const CHECKED = ['src', 'packages/*/src'];

const isSource = (name: string) =>
  /\.(?:ts|mts|cts|tsx)$/.test(name) && !name.endsWith('.d.ts') && !/\.test\.[cm]?tsx?$/.test(name);

function* sourceFiles(dir: string): Generator<string> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== 'node_modules') yield* sourceFiles(full);
    else if (entry.isFile() && isSource(entry.name)) yield full;
  }
}

function checkedDirs(root: string): string[] {
  return CHECKED.flatMap((pattern) => {
    const [head, ...rest] = pattern.split('/*/');
    if (rest.length === 0) return [path.join(root, pattern)];
    let names: string[];
    try {
      names = readdirSync(path.join(root, head ?? ''), { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => e.name);
    } catch {
      return [];
    }
    return names.map((name) => path.join(root, head ?? '', name, rest.join('/*/')));
  });
}

function compilerOptions(root: string): ts.CompilerOptions {
  const configPath = path.join(root, 'tsconfig.json');
  const read = ts.readConfigFile(configPath, ts.sys.readFile);
  if (read.error) {
    return { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext };
  }
  return ts.parseJsonConfigFileContent(read.config, ts.sys, root, undefined, configPath).options;
}

/** The import graph of the checked files: file → the checked files it imports (relative, `/`). */
export function importGraph(root: string): Map<string, string[]> {
  const options = compilerOptions(root);
  const host = ts.createCompilerHost(options);
  const cache = ts.createModuleResolutionCache(root, host.getCanonicalFileName, options);
  const rel = (abs: string) => path.relative(root, abs).split(path.sep).join('/');
  const files = checkedDirs(root).flatMap((dir) => [...sourceFiles(dir)]);
  const known = new Set(files.map((f) => path.resolve(f)));
  const graph = new Map<string, string[]>();
  for (const abs of files) {
    const source = ts.createSourceFile(abs, readFileSync(abs, 'utf8'), ts.ScriptTarget.Latest, true);
    const targets = new Set<string>();
    const mode = ts.getImpliedNodeFormatForFile(abs, cache.getPackageJsonInfoCache(), host, options);
    for (const { specifier } of moduleReferences(source)) {
      const resolved = ts.resolveModuleName(specifier, abs, options, host, cache, undefined, mode)
        .resolvedModule?.resolvedFileName;
      if (resolved && known.has(path.resolve(resolved))) targets.add(rel(path.resolve(resolved)));
    }
    graph.set(rel(abs), [...targets].sort());
  }
  return graph;
}

/** Strongly connected components with more than one file, or a file that imports itself. */
function tangles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string | undefined;
    do {
      w = stack.pop();
      if (w === undefined) break;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) connect(v);
  return found.sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''));
}

/** The shortest path from `from` back to `to`, staying inside `within`. */
function shortestPath(
  graph: Map<string, string[]>,
  from: string,
  to: string,
  within: Set<string>,
): string[] | undefined {
  const previous = new Map<string, string>();
  const queue = [from];
  const seen = new Set([from]);
  while (queue.length > 0) {
    const v = queue.shift() as string;
    for (const w of graph.get(v) ?? []) {
      if (!within.has(w)) continue;
      if (w === to) {
        const route = [w];
        for (let at: string | undefined = v; at !== undefined; at = previous.get(at)) route.unshift(at);
        return route;
      }
      if (seen.has(w)) continue;
      seen.add(w);
      previous.set(w, v);
      queue.push(w);
    }
  }
  return undefined;
}

/**
 * The circles of the graph, as paths of files that end where they start. Within each tangle,
 * every import edge that closes a loop gets the shortest circle through it, so one line names
 * each import to undo; circles that repeat one already printed (same files in turn) are dropped.
 */
export function findCircles(graph: Map<string, string[]>): string[][] {
  const circles: string[][] = [];
  const seen = new Set<string>();
  for (const component of tangles(graph)) {
    const within = new Set(component);
    for (const from of component) {
      for (const to of graph.get(from) ?? []) {
        if (!within.has(to)) continue;
        const back = from === to ? [to] : shortestPath(graph, to, from, within);
        if (!back) continue;
        const circle = from === to ? [from, from] : [from, ...back];
        const ring = circle.slice(0, -1);
        const start = ring.indexOf([...ring].sort()[0] as string);
        const key = [...ring.slice(start), ...ring.slice(0, start)].join('\n');
        if (seen.has(key)) continue;
        seen.add(key);
        const rotated = [...ring.slice(start), ...ring.slice(0, start)];
        circles.push([...rotated, rotated[0] as string]);
      }
    }
  }
  return circles.sort((a, b) => a.length - b.length || a.join().localeCompare(b.join()));
}

/** `src/domains/<name>/…` → `<name>`; anything else → undefined. */
export function domainOf(file: string): string | undefined {
  const parts = file.split('/');
  return parts.length > 3 && parts[0] === 'src' && parts[1] === 'domains' ? parts[2] : undefined;
}

/**
 * Domain edges tolerated, each `importing file → imported file`: none today. An entry names a
 * known edge that is on its way out; a new one needs a reason beside it.
 */
export const TOLERATED_DOMAIN_EDGES: readonly string[] = [];

/**
 * Circles between domains: each `src/domains/<name>/` is taken as one module, since a domain is
 * used through its door and two domains that import each other cannot be understood apart even
 * when no single file loops. A domain's `routes.ts` is left out of its domain: it is the HTTP
 * layer above every service (it reaches `src/http/auth.ts`, which reads api-keys), registered by
 * `app.ts`. Each hop into or out of a domain is printed as the import that makes it; `⋯` stands
 * for the way inside a domain. Only circles through two domains or more are listed; the rest are
 * file circles already.
 */
export function findDomainCircles(
  graph: Map<string, string[]>,
  tolerated: readonly string[] = TOLERATED_DOMAIN_EDGES,
): string[][] {
  const unit = (file: string) => {
    const domain = domainOf(file);
    return domain === undefined || file.endsWith('/routes.ts') ? file : `src/domains/${domain}/`;
  };
  const collapsed = new Map<string, Set<string>>();
  const witness = new Map<string, [string, string]>();
  for (const [from, targets] of graph) {
    for (const to of targets) {
      if (tolerated.includes(`${from} → ${to}`)) continue;
      const [a, b] = [unit(from), unit(to)];
      if (a === b) continue;
      if (!collapsed.has(a)) collapsed.set(a, new Set());
      collapsed.get(a)?.add(b);
      const key = `${a}\n${b}`;
      if (!witness.has(key)) witness.set(key, [from, to]);
    }
  }
  const units = new Map([...collapsed].map(([k, v]) => [k, [...v].sort()]));
  const circles: string[][] = [];
  for (const circle of findCircles(units)) {
    if (circle.filter((u) => u.endsWith('/')).length < 3) continue;
    const files: string[] = [];
    for (let i = 0; i + 1 < circle.length; i++) {
      const [from, to] = witness.get(`${circle[i]}\n${circle[i + 1]}`) ?? ['?', '?'];
      if (files.length > 0 && files[files.length - 1] !== from) files.push('⋯', from);
      else if (files.length === 0) files.push(from);
      files.push(to);
    }
    if (files[0] !== files[files.length - 1]) files.push('⋯', files[0] as string);
    circles.push(files);
  }
  return circles;
}

export function checkImportCircles(root: string): { files: string[][]; domains: string[][] } {
  const graph = importGraph(root);
  return { files: findCircles(graph), domains: findDomainCircles(graph) };
}

export const describeCircle = (circle: string[]) => circle.join(' → ').replaceAll(' → ⋯ → ', ' ⋯ ');

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'));
  const { files, domains } = checkImportCircles(root);
  if (files.length > 0) console.error(`File circles (${files.length}):`);
  for (const circle of files) console.error(`  ${describeCircle(circle)}`);
  if (domains.length > 0) console.error(`Domain circles (${domains.length}), each domain taken as one:`);
  for (const circle of domains) console.error(`  ${describeCircle(circle)}`);
  if (files.length + domains.length > 0) {
    console.error(
      `\nImport circles in ${CHECKED.join(', ')}. Move what both sides need into a lower module ` +
        'that imports neither (type-only imports count).',
    );
    process.exit(1);
  }
}
