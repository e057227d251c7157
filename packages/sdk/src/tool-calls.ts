/** The verdict actions a tool call can be mapped to. */
export type VerdictAction = 'shell.exec' | 'db.query' | 'http.request' | 'fs.read' | 'fs.write' | 'fs.delete';

/** What a tool call is judged as: a verdict on a known action, or the judgment engine for anything else. */
export type MappedCall =
  | { kind: 'verdict'; action: VerdictAction; payload: Record<string, unknown> }
  | { kind: 'judgment'; action_type: string; payload: Record<string, unknown> };

export interface ToolCall {
  name: string;
  args: Record<string, unknown>;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function fileAction(name: string): 'fs.read' | 'fs.write' | 'fs.delete' | undefined {
  const n = name.toLowerCase();
  // Most destructive first: a "remove_or_write" tool is judged as a delete.
  if (/delete|remove/.test(n)) return 'fs.delete';
  if (/write|edit|create|move/.test(n)) return 'fs.write';
  if (/read|get|list/.test(n)) return 'fs.read';
  return undefined;
}

/** The text a write would put in the file, from the argument names editing tools use. */
function writtenContent(args: Record<string, unknown>): string {
  for (const key of ['content', 'contents', 'text', 'new_string', 'newText', 'data']) {
    const value = str(args[key]);
    if (value !== undefined) return value;
  }
  return '';
}

export interface MapOptions {
  /**
   * The directory the tool resolves relative paths against: its process's working directory. By
   * default this process's, where the runtime has one. See `resolveRelativePaths`.
   */
  cwd?: string;
}

/**
 * Maps a tool call to an Arbiter action by the names of its arguments: `command`/`cmd` → shell.exec,
 * `sql` → db.query, `url` → http.request, `path`/`file_path` → fs.read, fs.write or fs.delete by the
 * tool's name. Anything else goes to the judgment engine with the tool's name as `action_type`.
 * Relative paths are resolved against `options.cwd` (see `resolveRelativePaths`).
 */
export function mapToolCall(call: ToolCall, options: MapOptions = {}): MappedCall {
  return resolveRelativePaths(mapByArgumentNames(call), options.cwd ?? processCwd());
}

function mapByArgumentNames(call: ToolCall): MappedCall {
  const { name, args } = call;
  const command = str(args.command) ?? str(args.cmd);
  if (command !== undefined) {
    const cwd = str(args.cwd);
    return { kind: 'verdict', action: 'shell.exec', payload: { command, ...(cwd ? { cwd } : {}) } };
  }
  const sql = str(args.sql);
  if (sql !== undefined) return { kind: 'verdict', action: 'db.query', payload: { sql } };
  const url = str(args.url);
  if (url !== undefined) {
    const method = str(args.method);
    return {
      kind: 'verdict',
      action: 'http.request',
      payload: { url, ...(method && /^[A-Za-z]{1,16}$/.test(method) ? { method } : {}) },
    };
  }
  const path = str(args.path) ?? str(args.file_path);
  const action = path === undefined ? undefined : fileAction(name);
  if (path !== undefined && action !== undefined) {
    const payload: Record<string, unknown> = { path };
    if (action === 'fs.write') payload.content = writtenContent(args);
    if (action === 'fs.delete' && typeof args.recursive === 'boolean') payload.recursive = args.recursive;
    return { kind: 'verdict', action, payload };
  }
  return { kind: 'judgment', action_type: name, payload: args };
}

function processCwd(): string | undefined {
  // Browsers and edge runtimes have no working directory: relative paths stay for the service.
  const proc = (globalThis as { process?: { cwd?: () => string } }).process;
  try {
    return typeof proc?.cwd === 'function' ? proc.cwd() : undefined;
  } catch {
    return undefined;
  }
}

const utf8Decoder = new TextDecoder('utf-8');
const utf8Encoder = new TextEncoder();

/** Percent-decoded until stable (three rounds at most); a malformed escape stays as it is. */
function percentDecoded(text: string): string {
  let current = text;
  for (let round = 0; round < 3 && current.includes('%'); round++) {
    const bytes = utf8Encoder.encode(current);
    const out: number[] = [];
    for (let i = 0; i < bytes.length; i++) {
      const hex =
        bytes[i] === 37
          ? /^[0-9A-Fa-f]{2}$/.exec(String.fromCharCode(bytes[i + 1] ?? 0, bytes[i + 2] ?? 0))
          : null;
      if (hex) {
        out.push(Number.parseInt(hex[0], 16));
        i += 2;
      } else {
        out.push(bytes[i]!);
      }
    }
    const next = utf8Decoder.decode(new Uint8Array(out));
    if (next === current) break;
    current = next;
  }
  return current;
}

/**
 * A path as the service reads it before placing it: percent-decoded, NFKC-folded (a full-width
 * `／` is a `/`), cut at NUL, trimmed, with `\` as a separator.
 */
function asTheServiceReadsIt(path: string): string {
  let seen = percentDecoded(path);
  if (!/^[\x00-\x7f]*$/.test(seen)) seen = seen.normalize('NFKC');
  const nul = seen.indexOf('\0');
  if (nul >= 0) seen = seen.slice(0, nul);
  return seen.trim().replaceAll('\\', '/');
}

/**
 * Paths the service places without a working directory: absolute (`/…`, `//host/…`, `C:…`), in a
 * home (`~`, `~user`, `$HOME`) or under a Windows variable (`%SystemRoot%`, `$env:windir`).
 */
const PLACED_BY_THE_SERVICE = /^(?:\/|~|[A-Za-z]:|\$HOME(?:\/|$)|\$[Ee][Nn][Vv]:|%[A-Za-z])/;

/** True when a relative path names the working directory itself or a directory above it: `.`, `..`, `a/../..`. */
function isWorkingTreeOrAbove(seen: string): boolean {
  const names: string[] = [];
  for (const segment of seen.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..' && names.length > 0 && names[names.length - 1] !== '..') names.pop();
    else names.push(segment);
  }
  return names.every((name) => name === '..');
}

/** `/a/./b/../c` → `/a/c`. */
function withoutDotSegments(absolute: string): string {
  const out: string[] = [];
  for (const segment of absolute.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment);
  }
  return `/${out.join('/')}`;
}

function resolvedPath(path: string, cwd: string, keepWorkingTree: boolean): string {
  const seen = asTheServiceReadsIt(path);
  if (seen === '' || PLACED_BY_THE_SERVICE.test(seen)) return path;
  // The service knows a working tree only as its own workspace: a recursive delete of this one,
  // or of a directory above it, stays relative so that it is judged as the wipe of a working tree.
  if (keepWorkingTree && isWorkingTreeOrAbove(seen)) return path;
  const joined = `${cwd.replace(/[\\/]+$/, '')}/${path.trim()}`;
  // A plain path goes resolved (`/work/x/../../etc/shadow` as `/etc/shadow`); any other (escapes,
  // backslashes, text outside ASCII) as joined, for the service to read like the relative one.
  return /^\/[\x20-\x7e]*$/.test(joined) && !/[%\\]/.test(joined) ? withoutDotSegments(joined) : joined;
}

/**
 * Resolves the relative paths of a verdict action against the directory the tool runs in, so that
 * the service judges the file the tool will touch: otherwise it resolves them against a workspace
 * of its own, and `../../etc/shadow` read from /work/x is not /etc/shadow there. The `path` of
 * fs.read, fs.write and fs.delete becomes absolute, and shell.exec gets `cwd` (its own `cwd`
 * resolved, or `cwd` itself). Absolute paths, `~` and Windows forms are left for the service, and
 * so is a recursive delete of the working directory or above it (the service refuses it as the
 * wipe of its working tree). Calls for the judgment engine are returned as they are. `cwd` is by
 * default this process's working directory; without one (a browser) nothing is resolved.
 */
export function resolveRelativePaths(mapped: MappedCall, cwd: string | undefined = processCwd()): MappedCall {
  if (mapped.kind !== 'verdict' || cwd === undefined || cwd === '') return mapped;
  const payload = mapped.payload;
  switch (mapped.action) {
    case 'fs.read':
    case 'fs.write':
    case 'fs.delete': {
      if (typeof payload.path !== 'string') return mapped;
      const recursive = mapped.action === 'fs.delete' && payload.recursive === true;
      return { ...mapped, payload: { ...payload, path: resolvedPath(payload.path, cwd, recursive) } };
    }
    case 'shell.exec': {
      if (payload.cwd !== undefined && typeof payload.cwd !== 'string') return mapped;
      const own = typeof payload.cwd === 'string' && payload.cwd.trim() !== '' ? payload.cwd : undefined;
      return {
        ...mapped,
        payload: { ...payload, cwd: own === undefined ? cwd : resolvedPath(own, cwd, false) },
      };
    }
    default:
      return mapped;
  }
}
