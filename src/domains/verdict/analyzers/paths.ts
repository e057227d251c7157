import { lookupTable } from '../../../lib/lookup-table.ts';
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
 * Windows environment variables that name system or credential locations, with where they
 * point on a default installation (the agent's own profile stands for the user's).
 */
const WINDOWS_VARIABLES: Record<string, string> = lookupTable({
  systemroot: 'C:/Windows',
  windir: 'C:/Windows',
  systemdrive: 'C:',
  homedrive: 'C:',
  programdata: 'C:/ProgramData',
  allusersprofile: 'C:/ProgramData',
  programfiles: 'C:/Program Files',
  'programfiles(x86)': 'C:/Program Files (x86)',
  programw6432: 'C:/Program Files',
  commonprogramfiles: 'C:/Program Files/Common Files',
  public: 'C:/Users/Public',
  userprofile: 'C:/Users/agent',
  homepath: '/Users/agent',
  appdata: 'C:/Users/agent/AppData/Roaming',
  localappdata: 'C:/Users/agent/AppData/Local',
  temp: 'C:/Users/agent/AppData/Local/Temp',
  tmp: 'C:/Users/agent/AppData/Local/Temp',
});

/** `%Var%` (cmd) and `$env:Var` (PowerShell) forms of the variables above. */
const WINDOWS_VARIABLE =
  /%([A-Za-z][A-Za-z0-9_()]{0,30}(?:\(x86\))?)%|\$env:([A-Za-z][A-Za-z0-9_]{0,30}(?:\(x86\))?)/gi;

function expandWindowsVariables(path: string): string {
  return path.replace(WINDOWS_VARIABLE, (whole, cmd: string | undefined, ps: string | undefined) => {
    const value = WINDOWS_VARIABLES[(cmd ?? ps ?? '').toLowerCase()];
    return value ?? whole;
  });
}

/** Marks a path written the Windows way: a drive, a backslash, a Windows variable. */
const WINDOWS_FORM = /^[A-Za-z]:|\\|%[A-Za-z][A-Za-z0-9_()]*%|\$env:/i;

/**
 * Canonical absolute form of a path as an attacker would hope the filesystem reads it:
 * percent-decoded, NFKC-folded (full-width `／` and `．` are `/` and `.`), cut at NUL,
 * backslashes as separators, Windows variables expanded, `\\?\` and `\\.\` prefixes and drive
 * letters dropped, `~` expanded, dot-segments and repeated slashes resolved, relative paths
 * against the workspace. A Windows UNC path keeps its two leading slashes (`//host/share/…`).
 * Windows file names do not distinguish case, so a Windows-form path comes back lower-cased.
 */
const ASCII_ONLY = /^[\x00-\x7f]*$/;

export function normalizePath(raw: string, ctx: PathContext = DEFAULT_PATH_CONTEXT): string {
  let path = percentDecode(raw);
  // NFKC changes only text outside ASCII; most paths have none.
  if (!ASCII_ONLY.test(path)) path = path.normalize('NFKC');
  const nul = path.indexOf('\0');
  if (nul >= 0) path = path.slice(0, nul);
  path = path.trim();
  const windows = WINDOWS_FORM.test(path);
  if (windows) path = expandWindowsVariables(path);
  path = path.replaceAll('\\', '/');
  let unc = false;
  if (windows) {
    // Win32 namespace prefixes: `\\?\C:\…`, `\\.\C:\…`, `\\?\UNC\host\share`, `\\?\GLOBALROOT\…`.
    const device =
      /^\/\/[?.]\/(?:(unc)\/|globalroot\/device\/(?:harddiskvolume(?:shadowcopy)?\d+|[a-z]+\d*)\/|globalroot\/)?/i.exec(
        path,
      );
    if (device) {
      unc = device[1] !== undefined;
      path = (unc ? '' : '/') + path.slice(device[0].length);
    } else if (/^\/\/[^/]/.test(path)) {
      unc = true;
      path = path.slice(2);
    }
    if (unc) path = `/${path}`;
  }
  const drive = /^\/?[A-Za-z]:(?=\/|$)/.exec(path);
  if (!unc && drive) path = path.slice(drive[0].length) || '/';
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
  let resolved: string;
  if (unc) {
    // `..` never climbs above the host: `\\host\share\..\..\x` is still on that host.
    const slash = path.indexOf('/', 1);
    const host = slash < 0 ? path.slice(1) : path.slice(1, slash);
    const rest = resolveSegments(slash < 0 ? '/' : path.slice(slash));
    resolved = `//${host}${rest === '/' ? '' : rest}`;
  } else {
    resolved = resolveSegments(path);
  }
  return windows ? resolved.toLowerCase() : resolved;
}

/** Files whose contents are credentials or identities: denied for every kind of access. */
const SECRET_FILE_PATTERNS: readonly RegExp[] = [
  /^\/etc\/(passwd|shadow|gshadow|group|sudoers|master\.passwd|security\/opasswd)(\/|$|-)/,
  /^\/etc\/sudoers\.d(\/|$)/,
  /^\/etc\/ssh(\/|$)/,
  /^\/root(\/|$)/,
  /^\/proc\/[^/]+\/(environ|mem|cmdline|maps)$/,
  /(^|\/)\.ssh(\/|$)/,
  /(^|\/)\.aws(\/|$)/,
  /(^|\/)\.kube(\/|$)/,
  /(^|\/)\.docker\/config\.json$/,
  /(^|\/)\.config\/gcloud(\/|$)/,
  /(^|\/)\.azure(\/|$)/,
  /(^|\/)\.gnupg(\/|$)/,
  /(^|\/)\.(netrc|git-credentials|pgpass)$/,
  /^\/var\/run\/secrets(\/|$)/,
  /^\/run\/secrets(\/|$)/,
  // macOS: the root account's home and the keychains.
  /^\/private\/var\/root(\/|$)/,
  /^\/(?:private\/)?var\/db\/dslocal(\/|$)/,
  /(^|\/)library\/keychains(\/|$)/i,
  // Windows (matched without case): the registry hives, DPAPI keys and the credential vaults.
  /^\/windows\/system32\/config(\/|$)/i,
  /^\/windows\/(?:system32|syswow64)\/(?:sam|system|security)$/i,
  /^\/windows\/repair(\/|$)/i,
  /^\/windows\/ntds(\/|$)/i,
  /\/appdata\/(?:roaming|local)\/microsoft\/(?:credentials|protect|vault)(\/|$)/i,
  /^\/programdata\/microsoft\/(?:crypto|vault|credentials)(\/|$)/i,
  /^\/users\/[^/]+\/ntuser\.dat/i,
  // Administrative shares give a remote machine's whole disk: `\\host\C$`, `\\host\ADMIN$`.
  /^\/\/[^/]+\/(?:[a-z]\$|admin\$|ipc\$|print\$)(\/|$)/i,
];

/** System trees an agent has no business reading or writing through the fs actions. */
const SYSTEM_TREE = /^\/(etc|root|proc|sys|boot|dev)(\/|$)/;
const OTHER_SYSTEM_TREES: readonly RegExp[] = [
  // macOS keeps /etc under /private.
  /^\/private\/etc(\/|$)/,
  // The Docker socket: whoever can write to it is root on the host.
  /^\/(?:var\/)?run\/docker\.sock$/,
  /^\/(?:var\/)?run\/(?:containerd\/containerd|podman\/podman|crio\/crio)\.sock$/,
  // %SystemRoot% and raw devices (`\\.\PhysicalDrive0`, `\\.\C:`).
  /^\/windows(\/|$)/i,
  /^\/(?:physicaldrive\d+|harddisk\d+|device|[a-z]:)(\/|$)/i,
];
const HARMLESS_DEVICES = /^\/dev\/(null|zero|stdin|stdout|stderr|tty|u?random|fd\/[0-2])$/;

/** Top-level directories whose recursive removal wrecks the machine (compared without case). */
const TOP_LEVEL_SYSTEM = new Set(
  [
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
    'private',
    'users',
    'applications',
    'library',
    'system',
    'volumes',
    'windows',
    'program files',
    'program files (x86)',
    'programdata',
    'recovery',
    'system volume information',
  ].map((name) => name.toLowerCase()),
);

/**
 * Where data stores keep their data on a server (`/var/lib/mysql`, `/var/lib/postgresql/16/main`,
 * `/var/lib/docker`, `/var/lib/etcd`): removing the directory, or anything under it, destroys or
 * corrupts the store as `DROP DATABASE` would, whatever the store's own client would have said.
 */
const DATA_STORE_DIRECTORY =
  /^\/var\/lib\/(?:postgresql|pgsql|mysql|mariadb|mongodb|mongo|redis|valkey|cassandra|elasticsearch|opensearch|clickhouse|influxdb|etcd|docker|containerd|kubelet|rabbitmq|kafka|zookeeper|couchdb|neo4j|minio|vault|consul|nomad|cockroach|scylla|memgraph|grafana|prometheus|loki|mysql-files)(?:\/|$)/i;

/** Second-level system directories: `/usr/*`, `/var/lib`, `C:\Windows\System32`… */
const SECOND_LEVEL_SYSTEM =
  /^\/(?:usr\/[^/]+|var\/lib|windows\/(?:system32|syswow64|winsxs)|system\/library)$/i;

export type PathClass = 'secret' | 'system' | null;

/** `secret`: credential material; `system`: other protected trees; null: ordinary. */
export function classifyPath(normalized: string): PathClass {
  for (const pattern of SECRET_FILE_PATTERNS) if (pattern.test(normalized)) return 'secret';
  if (SYSTEM_TREE.test(normalized) && !HARMLESS_DEVICES.test(normalized)) return 'system';
  for (const pattern of OTHER_SYSTEM_TREES) if (pattern.test(normalized)) return 'system';
  return null;
}

/**
 * True when removing the tree at this normalised path destroys the system or a user's
 * home: `/` (a Windows drive root normalises to it), a top-level system directory (`C:\Windows`,
 * `C:\Program Files`, `/usr`…), a second-level one (`/usr/lib`, `C:\Windows\System32`),
 * `/home/<user>`, `/Users/<user>`, the home the agent runs in, the working tree or a directory
 * above it, or a remote machine's
 * administrative share or share root (`\\host\C$`).
 */
export function isCatastrophicDeleteTarget(
  normalized: string,
  ctx: PathContext = DEFAULT_PATH_CONTEXT,
): boolean {
  if (normalized === '/' || normalized === ctx.home) return true;
  // `/mnt/c`: a whole Windows drive as WSL mounts it.
  if (/^\/mnt\/[a-z]$/i.test(normalized)) return true;
  // The working tree and every directory above it.
  if (normalized === ctx.workspace || ctx.workspace.startsWith(`${normalized}/`)) return true;
  if (normalized.startsWith('//')) {
    // `//host` or `//host/share`: a whole remote share.
    return (
      normalized
        .slice(2)
        .split('/')
        .filter((part) => part !== '').length <= 2
    );
  }
  if (DATA_STORE_DIRECTORY.test(normalized)) return true;
  const parts = normalized.split('/').filter((part) => part !== '');
  if (parts.length === 1) return TOP_LEVEL_SYSTEM.has(parts[0]!.toLowerCase());
  if (parts.length === 2) {
    const top = parts[0]!.toLowerCase();
    if (top === 'home' || top === 'users') return true;
    return SECOND_LEVEL_SYSTEM.test(normalized);
  }
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
  } else if (access === 'delete' && recursive && /(?:^|\/)\.git\/?$/.test(normalized)) {
    // As `rm -rf .git` is: the repository's history, which no commit can bring back.
    findings.push({
      code: 'DEST_MUTATION',
      message: "recursive delete of a repository's history (.git)",
      location: `path ${describe(normalized)}`,
    });
  }
  return findings;
}

/**
 * Files whose content runs later without anyone running them: shell start-up files, git hooks,
 * systemd units and desktop autostart entries. What a write puts there is judged as the command
 * it will be: the scripts whole, the units and entries by their `ExecStart=`/`Exec=` lines.
 */
const STARTUP_SCRIPT =
  /(?:^|\/)(?:\.bashrc|\.bash_profile|\.bash_login|\.profile|\.zshrc|\.zprofile|\.zshenv|\.zlogin|\.kshrc|\.config\/fish\/config\.fish|\.git\/hooks\/[\w.-]+)$/;
const UNIT_OR_AUTOSTART = /(?:\.service|\.timer|\.desktop)$|\/systemd\/[\w./-]*\.conf$/;

export function autoRunCommands(
  rawPath: string,
  content: string,
  ctx: PathContext = DEFAULT_PATH_CONTEXT,
): string[] {
  const normalized = normalizePath(rawPath, ctx);
  if (STARTUP_SCRIPT.test(normalized)) return [content];
  if (!UNIT_OR_AUTOSTART.test(normalized)) return [];
  const commands: string[] = [];
  for (const m of content.matchAll(
    /^\s*(?:Exec(?:Start|StartPre|StartPost|Stop|StopPost|Reload|Condition)?)\s*=\s*[-@:+!]*(.+)$/gm,
  )) {
    if (commands.length >= 64) break;
    commands.push(m[1]!.trim());
  }
  return commands;
}
