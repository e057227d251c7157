import type { Finding } from '../codes.ts';

/** Where relative paths and `~` land when the agent's own location is unknown. */
export interface PathContext {
  home: string;
  workspace: string;
}

export const DEFAULT_PATH_CONTEXT: PathContext = {
  home: '/home/agent',
  workspace: '/home/agent/workspace/app',
};

const MAX_DECODE_ROUNDS = 3;

function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 65 && code <= 70) return code - 55;
  if (code >= 97 && code <= 102) return code - 87;
  return -1;
}

const utf8 = new TextDecoder('utf-8');
const utf8Encoder = new TextEncoder();

/** One round of percent-decoding that never throws: malformed escapes stay as they are. */
export function percentDecodeOnce(input: string): string {
  if (!input.includes('%')) return input;
  const source = utf8Encoder.encode(input);
  const out = new Uint8Array(source.length);
  let length = 0;
  for (let i = 0; i < source.length; i++) {
    const byte = source[i]!;
    if (byte === 37 && i + 2 < source.length) {
      const high = hexValue(source[i + 1]!);
      const low = hexValue(source[i + 2]!);
      if (high >= 0 && low >= 0) {
        out[length++] = high * 16 + low;
        i += 2;
        continue;
      }
    }
    out[length++] = byte;
  }
  return utf8.decode(out.subarray(0, length));
}

/** Percent-decodes until stable, as a server that decodes more than once would see it. */
export function percentDecode(input: string): string {
  let current = input;
  for (let round = 0; round < MAX_DECODE_ROUNDS; round++) {
    const next = percentDecodeOnce(current);
    if (next === current) break;
    current = next;
  }
  return current;
}

function resolveSegments(path: string): string {
  const out: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment);
  }
  return `/${out.join('/')}`;
}

/**
 * Canonical absolute form of a path as an attacker would hope the filesystem reads it:
 * decoded, cut at NUL, backslashes as separators, drive letters dropped, `~` expanded,
 * dot-segments and repeated slashes resolved, relative paths against the workspace.
 */
export function normalizePath(raw: string, ctx: PathContext = DEFAULT_PATH_CONTEXT): string {
  let path = percentDecode(raw);
  const nul = path.indexOf('\0');
  if (nul >= 0) path = path.slice(0, nul);
  path = path.replaceAll('\\', '/').trim();
  const drive = /^[A-Za-z]:(?=\/|$)/.exec(path);
  if (drive) path = path.slice(2) || '/';
  if (path === '~' || path.startsWith('~/')) {
    path = ctx.home + path.slice(1);
  } else if (path.startsWith('~')) {
    const slash = path.indexOf('/');
    const user = slash < 0 ? path.slice(1) : path.slice(1, slash);
    path = `${user === 'root' ? '/root' : `/home/${user}`}${slash < 0 ? '' : path.slice(slash)}`;
  } else if (path.startsWith('$HOME') && (path.length === 5 || path[5] === '/')) {
    path = ctx.home + path.slice(5);
  }
  if (!path.startsWith('/')) path = `${ctx.workspace}/${path}`;
  return resolveSegments(path);
}

/** Files whose contents are credentials or identities: denied for every kind of access. */
const SECRET_FILE_PATTERNS: readonly RegExp[] = [
  /^\/etc\/(passwd|shadow|gshadow|group|sudoers|master\.passwd|security\/opasswd)(\/|$|-)/,
  /^\/etc\/sudoers\.d(\/|$)/,
  /^\/etc\/ssh(\/|$)/,
  /^\/root(\/|$)/,
  /^\/proc\/[^/]+\/(environ|mem|cmdline|maps)$/,
  /(^|\/)\.ssh(\/|$)/,
  /(^|\/)\.aws\/(credentials|config)$/,
  /(^|\/)\.kube\/config$/,
  /(^|\/)\.docker\/config\.json$/,
  /(^|\/)\.config\/gcloud(\/|$)/,
  /(^|\/)\.azure(\/|$)/,
  /(^|\/)\.gnupg(\/|$)/,
  /(^|\/)\.(netrc|git-credentials|pgpass)$/,
  /^\/var\/run\/secrets(\/|$)/,
  /^\/run\/secrets(\/|$)/,
];

/** System trees an agent has no business reading or writing through the fs actions. */
const SYSTEM_TREE = /^\/(etc|root|proc|sys|boot|dev)(\/|$)/;
const HARMLESS_DEVICES = /^\/dev\/(null|zero|stdin|stdout|stderr|tty|u?random|fd\/[0-2])$/;

/** Top-level directories whose recursive removal wrecks the machine. */
const TOP_LEVEL_SYSTEM = new Set([
  'bin',
  'boot',
  'dev',
  'etc',
  'home',
  'lib',
  'lib32',
  'lib64',
  'libx32',
  'media',
  'mnt',
  'opt',
  'proc',
  'root',
  'run',
  'sbin',
  'snap',
  'srv',
  'sys',
  'tmp',
  'usr',
  'var',
  'Users',
  'Applications',
  'Library',
  'System',
  'Volumes',
]);

export type PathClass = 'secret' | 'system' | null;

/** `secret`: credential material; `system`: other protected trees; null: ordinary. */
export function classifyPath(normalized: string): PathClass {
  for (const pattern of SECRET_FILE_PATTERNS) if (pattern.test(normalized)) return 'secret';
  if (SYSTEM_TREE.test(normalized) && !HARMLESS_DEVICES.test(normalized)) return 'system';
  return null;
}

/**
 * True when removing the tree at this normalised path destroys the system or a user's
 * home: `/`, a top-level system directory, `/home/<user>`, `/Users/<user>`, or the home
 * the agent runs in.
 */
export function isCatastrophicDeleteTarget(
  normalized: string,
  ctx: PathContext = DEFAULT_PATH_CONTEXT,
): boolean {
  if (normalized === '/' || normalized === ctx.home) return true;
  const parts = normalized.split('/').filter((part) => part !== '');
  if (parts.length === 1) return TOP_LEVEL_SYSTEM.has(parts[0]!);
  if (parts.length === 2) return (parts[0] === 'home' || parts[0] === 'Users') && parts[1] !== undefined;
  if (parts.length === 2 && parts[0] === 'usr') return true;
  return false;
}

function describe(normalized: string): string {
  return normalized.length > 120 ? `${normalized.slice(0, 117)}...` : normalized;
}

export type FsAccess = 'read' | 'write' | 'delete';

/** Findings for an fs.read / fs.write / fs.delete payload. */
export function analyzeFsPath(
  access: FsAccess,
  rawPath: string,
  recursive = false,
  ctx: PathContext = DEFAULT_PATH_CONTEXT,
): Finding[] {
  const normalized = normalizePath(rawPath, ctx);
  const findings: Finding[] = [];
  const cls = classifyPath(normalized);
  if (cls !== null) {
    findings.push({
      code: 'FILESYSTEM_DENIED',
      message: `${access} of a ${cls === 'secret' ? 'credential file' : 'protected system path'} is not allowed`,
      location: `path ${describe(normalized)}`,
    });
  }
  if (access === 'delete' && recursive && isCatastrophicDeleteTarget(normalized, ctx)) {
    findings.push({
      code: 'DEST_MUTATION',
      message: 'recursive delete of the root, a home or a top-level system directory',
      location: `path ${describe(normalized)}`,
    });
  }
  return findings;
}
