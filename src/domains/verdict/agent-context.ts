import canonicalize from 'canonicalize';
import { localOriginProblem } from './analyzers/egress/local-services.ts';
import { DEFAULT_PATH_CONTEXT, normalizePath, type PathContext } from './analyzers/paths.ts';

/**
 * Where the agent works, as a verdict request (`context`) or the account's defaults say: its
 * workspace roots, its user and home, its operating system. Paths are judged relative to it
 * (`classifyPath`): inside a workspace files are the agent's own, except credential stores,
 * start-up files and system trees.
 */
export interface AgentContext {
  /** Normalised absolute roots, the first one where relative paths resolve. */
  workspace?: string[];
  user?: string;
  /** Normalised absolute path. */
  home?: string;
  os?: AgentOs;
}

export const AGENT_OS = ['linux', 'macos', 'windows'] as const;
export type AgentOs = (typeof AGENT_OS)[number];

/** The account's defaults (`GET/PUT /v1/settings/context`): a context, and its named local origins. */
export interface ContextSettings extends AgentContext {
  /** Loopback origins an `http.request` may reach (`http://localhost:3000`), as `URL.origin` writes them. */
  local_origins: string[];
}

export const NO_CONTEXT_SETTINGS: ContextSettings = Object.freeze({ local_origins: [] }) as ContextSettings;

export const CONTEXT_LIMITS = Object.freeze({
  workspaces: 8,
  path: 1024,
  user: 64,
  localOrigins: 32,
});

const CONTEXT_FIELDS = new Set(['workspace', 'user', 'home', 'os']);
const USER_NAME = /^[A-Za-z0-9_.][A-Za-z0-9_.@$-]*$/;
/** Absolute as the agent's OS would write it: `/…`, `~…`, `C:\…`, `\\host\share`. */
const ABSOLUTE = /^(?:\/|~|[A-Za-z]:[\\/]|\\\\)/;

export type ContextCheck<T> = { ok: true; value: T } | { ok: false; message: string; field: string };

function fail<T>(field: string, message: string): ContextCheck<T> {
  return { ok: false, field, message: `${field} ${message}` };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkPath(value: unknown, field: string): ContextCheck<string> {
  if (typeof value !== 'string') return fail(field, 'must be a string');
  const text = value.trim();
  if (text === '') return fail(field, 'must not be empty');
  if (text.length > CONTEXT_LIMITS.path)
    return fail(field, `must be at most ${CONTEXT_LIMITS.path} characters`);
  if (!ABSOLUTE.test(text)) return fail(field, `must be an absolute path, not "${text.slice(0, 60)}"`);
  return { ok: true, value: text };
}

function homeOf(user: string, os: AgentOs | undefined): string {
  if (os === 'windows') return normalizePath(`C:\\Users\\${user}`);
  if (os === 'macos') return user === 'root' ? '/var/root' : `/Users/${user}`;
  return user === 'root' ? '/root' : `/home/${user}`;
}

/**
 * Checks and normalises a context (`prefix` names it in messages: `context`, or the settings
 * body). Strict: unknown fields, relative paths and oversized values are refused; paths come back
 * normalised (`~` against the home, `..` resolved, Windows forms lower-cased), roots without
 * duplicates, so the same context always has the same canonical form.
 */
export function readAgentContext(value: unknown, prefix = 'context'): ContextCheck<AgentContext> {
  if (!isPlainObject(value)) return fail(prefix, 'must be a JSON object {workspace?, user?, home?, os?}');
  for (const key of Object.keys(value)) {
    if (!CONTEXT_FIELDS.has(key)) return fail(`${prefix}.${key.slice(0, 40)}`, 'is not a context field');
  }
  const out: AgentContext = {};
  const { workspace, user, home, os } = value;
  if (os !== undefined) {
    if (typeof os !== 'string' || !(AGENT_OS as readonly string[]).includes(os))
      return fail(`${prefix}.os`, `must be one of ${AGENT_OS.join(', ')}`);
    out.os = os as AgentOs;
  }
  if (user !== undefined) {
    if (
      typeof user !== 'string' ||
      user.length === 0 ||
      user.length > CONTEXT_LIMITS.user ||
      !USER_NAME.test(user)
    )
      return fail(`${prefix}.user`, `must be a user name of at most ${CONTEXT_LIMITS.user} characters`);
    out.user = user;
  }
  if (home !== undefined) {
    const checked = checkPath(home, `${prefix}.home`);
    if (!checked.ok) return checked;
    out.home = normalizePath(checked.value, DEFAULT_PATH_CONTEXT);
  }
  if (workspace !== undefined) {
    const list = typeof workspace === 'string' ? [workspace] : workspace;
    if (!Array.isArray(list) || list.length === 0 || list.length > CONTEXT_LIMITS.workspaces)
      return fail(
        `${prefix}.workspace`,
        `must be a path or a list of 1 to ${CONTEXT_LIMITS.workspaces} paths`,
      );
    const home = out.home ?? (out.user === undefined ? DEFAULT_PATH_CONTEXT.home : homeOf(out.user, out.os));
    const roots: string[] = [];
    for (const [index, raw] of list.entries()) {
      const field = typeof workspace === 'string' ? `${prefix}.workspace` : `${prefix}.workspace[${index}]`;
      const checked = checkPath(raw, field);
      if (!checked.ok) return checked;
      const root = normalizePath(checked.value, { home, workspace: home });
      if (!roots.includes(root)) roots.push(root);
    }
    out.workspace = roots;
  }
  return { ok: true, value: out };
}

/** Checks the body of `PUT /v1/settings/context`: a context and its named local origins. */
export function readContextSettings(value: unknown): ContextCheck<ContextSettings> {
  if (!isPlainObject(value)) return fail('settings', 'must be a JSON object');
  const { local_origins: origins, ...rest } = value;
  const context = readAgentContext(rest, 'settings');
  if (!context.ok) return context;
  const list = origins ?? [];
  if (!Array.isArray(list) || list.length > CONTEXT_LIMITS.localOrigins)
    return fail('local_origins', `must be a list of at most ${CONTEXT_LIMITS.localOrigins} origins`);
  const localOrigins = new Set<string>();
  for (const [index, raw] of list.entries()) {
    const field = `local_origins[${index}]`;
    if (typeof raw !== 'string' || raw.length > 300)
      return fail(field, 'must be an origin of at most 300 characters');
    let url: URL;
    try {
      url = new URL(raw.trim());
    } catch {
      return fail(field, `"${raw.slice(0, 100)}" is not a URL`);
    }
    const problem = localOriginProblem(url);
    if (problem !== undefined) return fail(field, `"${raw.slice(0, 100)}" ${problem}`);
    localOrigins.add(url.origin);
  }
  return { ok: true, value: { ...context.value, local_origins: [...localOrigins].sort() } };
}

export function isEmptyContext(context: AgentContext): boolean {
  return (
    context.workspace === undefined &&
    context.user === undefined &&
    context.home === undefined &&
    context.os === undefined
  );
}

/** The request's context over the account's defaults, field by field. */
function merged(request: AgentContext | undefined, defaults: AgentContext | undefined): AgentContext {
  if (defaults === undefined) return request ?? {};
  if (request === undefined) return defaults;
  const out: AgentContext = {};
  const workspace = request.workspace ?? defaults.workspace;
  const user = request.user ?? defaults.user;
  const home = request.home ?? defaults.home;
  const os = request.os ?? defaults.os;
  if (workspace !== undefined) out.workspace = workspace;
  if (user !== undefined) out.user = user;
  if (home !== undefined) out.home = home;
  if (os !== undefined) out.os = os;
  return out;
}

/** Homes of the superuser and of users: a workspace inside one says whose home the agent has. */
const HOME_DIRECTORY =
  /^(?:\/root|\/var\/root|\/private\/var\/root|\/home\/[^/]+|\/Users\/[^/]+|\/users\/[^/]+)(?=\/|$)/;

/**
 * Where the engine resolves and judges paths: the home (given, from the user and OS, or the home
 * a workspace lies in: `/root/app` is root's), the first workspace (or the home) for relative
 * paths, and every workspace as the agent's own. With no workspace declared, a shell `cwd` outside
 * the default workspace stands for one (`cwd: /root` makes `/root` the agent's own), while
 * relative paths keep resolving as the shell resolves them. No context and no such `cwd`:
 * `DEFAULT_PATH_CONTEXT`, the same object, which the shell analyzer's memo recognises.
 */
export function pathContextOf(
  request: AgentContext | undefined,
  defaults: AgentContext | undefined,
  cwd?: string,
): PathContext {
  const context = merged(request, defaults);
  const declared = context.workspace;
  const evidence =
    declared === undefined && cwd !== undefined ? normalizePath(cwd, DEFAULT_PATH_CONTEXT) : undefined;
  const outside =
    evidence !== undefined &&
    evidence !== DEFAULT_PATH_CONTEXT.workspace &&
    !evidence.startsWith(`${DEFAULT_PATH_CONTEXT.workspace}/`);
  if (isEmptyContext(context) && !outside) return DEFAULT_PATH_CONTEXT;
  const home =
    context.home ??
    (context.user === undefined ? undefined : homeOf(context.user, context.os)) ??
    (declared?.[0] === undefined ? undefined : HOME_DIRECTORY.exec(declared[0])?.[0]) ??
    DEFAULT_PATH_CONTEXT.home;
  if (declared !== undefined) return { home, workspace: declared[0]!, roots: declared };
  const workspace = isEmptyContext(context) ? DEFAULT_PATH_CONTEXT.workspace : home;
  return outside ? { home, workspace, roots: [evidence] } : { home, workspace };
}

/** RFC 8785 form of a request context for the verdict hash; undefined when it says nothing. */
export function canonicalContext(context: AgentContext | undefined): string | undefined {
  return context === undefined || isEmptyContext(context) ? undefined : canonicalize(context);
}
