import { lookupTable } from '../../../lib/lookup-table.ts';
import type { Finding } from '../codes.ts';

/**
 * Where the agent works: what `~` and relative paths resolve against, and which trees are its
 * own. Without a request context the agent is an ordinary user (`DEFAULT_PATH_CONTEXT`), so the
 * superuser's home (`/root`) is someone else's and refused; a context or a shell `cwd` that puts
 * the agent in `/root` makes it the agent's own home (see `classifyPath`). Only `home` and
 * `roots` say what is the agent's own: `workspace` moves with every `cd`.
 */
export interface PathContext {
  home: string;
  /** Where relative paths resolve: the first workspace, or the shell's `cwd`. */
  workspace: string;
  /**
   * The workspaces the caller declared (`context.workspace`), or the shell `cwd` that stands for
   * one when none is declared: the trees that are the agent's own, and whose wipe is refused.
   */
  roots?: readonly string[];
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
  // macOS: the local directory service (password hashes) and the keychains.
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
  // Browser profiles: saved logins, cookies, card data and the keys that decrypt them, on the
  // three systems. A file of the same name elsewhere (a test fixture called `Login Data`) is not one.
  /(?:^|\/)(?:\.config\/(?:google-chrome(?:-beta|-unstable)?|chromium|bravesoftware|microsoft-edge(?:-beta|-dev)?|opera|vivaldi)|application support\/(?:google\/chrome|chromium|bravesoftware|microsoft edge|com\.operasoftware\.opera|vivaldi)|appdata\/(?:local|roaming)\/(?:google\/chrome|chromium|bravesoftware\/brave-browser|microsoft\/edge|opera software|vivaldi)(?:\/user data)?)(?:\/|$)/i,
  /(?:^|\/)(?:\.mozilla\/firefox|application support\/firefox|appdata\/(?:roaming|local)\/mozilla\/firefox)(?:\/|$)/i,
  // Administrative shares give a remote machine's whole disk: `\\host\C$`, `\\host\ADMIN$`.
  /^\/\/[^/]+\/(?:[a-z]\$|admin\$|ipc\$|print\$)(\/|$)/i,
];

/**
 * Credential stores of the CLIs that publish and deploy, where they sit in a home
 * (`~/.pypirc`, `~/.config/gh/hosts.yml`): in a project the same names are ordinary files.
 */
const HOME_CREDENTIAL_FILES =
  /^(?:\.pypirc|\.cargo\/credentials(?:\.toml)?|\.gem\/credentials|\.config\/gh\/hosts\.yml|\.config\/hub|\.config\/glab-cli\/config\.yml|\.terraform\.d\/credentials\.tfrc\.json|\.config\/containers\/auth\.json|\.vault-token|\.local\/share\/keyrings(?:\/.*)?|\.password-store(?:\/.*)?|\.config\/rclone\/rclone\.conf|\.s3cfg|\.boto|\.databrickscfg|\.oci\/config|\.config\/doctl\/config\.yaml|\.composer\/auth\.json|\.config\/composer\/auth\.json)$/;
/** Homes as they appear on Linux, macOS and Windows (lower-cased), and the superuser's. */
const HOME_PREFIX = /^(?:\/home\/[^/]+|\/users\/[^/]+|\/Users\/[^/]+|\/root|\/(?:private\/)?var\/root)\//;

/**
 * System trees an agent has no business reading or writing through the fs actions, whatever its
 * workspace: a workspace never makes them the agent's own.
 */
const SYSTEM_TREE = /^\/(etc|proc|sys|boot|dev)(\/|$)/;
const OTHER_SYSTEM_TREES: readonly RegExp[] = [
  // macOS keeps /etc under /private.
  /^\/private\/etc(\/|$)/,
  // The Docker socket: whoever can write to it is root on the host.
  /^\/(?:var\/)?run\/docker\.sock$/,
  /^\/(?:var\/)?run\/(?:containerd\/containerd|podman\/podman|crio\/crio)\.sock$/,
  // Jobs that start by themselves: the cron spool and macOS's system-wide launchd jobs.
  /^\/var\/spool\/cron(\/|$)/,
  /^\/(?:System\/)?Library\/(?:LaunchDaemons|LaunchAgents|StartupItems)(\/|$)/,
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

/**
 * Homes of the superuser (`/root`; `/var/root` on macOS, also as `/private/var/root`): another
 * account's, unless the context puts the agent there. The two macOS spellings are one directory.
 */
const SUPERUSER_HOMES: readonly (readonly string[])[] = [['/root'], ['/var/root', '/private/var/root']];

/**
 * `secret`: credential and identity stores, wherever they are; `system`: system trees, whatever
 * the workspace; `home`: the superuser's home when the agent does not work there; null: the
 * agent's own or ordinary files.
 */
export type PathClass = 'secret' | 'system' | 'home' | null;

/** What a message calls a protected path, with its article: never "credential file" for a CSV in /root. */
export function describePathClass(cls: Exclude<PathClass, null>): string {
  if (cls === 'secret') return 'a credential or identity file';
  if (cls === 'system') return 'a protected system path';
  return "the superuser's home, which is not the agent's (a context whose home or workspace is there makes it so)";
}

function within(path: string, tree: string): boolean {
  return path === tree || path.startsWith(`${tree}/`);
}

/**
 * The superuser's home is the agent's own when the context says so: it is the agent's home, or a
 * workspace (or the shell `cwd` standing for one) lies in it. A workspace above it (`/`) is not.
 */
function ownsHome(spellings: readonly string[], ctx: PathContext): boolean {
  const roots = ctx.roots ?? [];
  return spellings.some((home) => within(ctx.home, home) || roots.some((root) => within(root, home)));
}

function superuserHome(normalized: string, ctx: PathContext): boolean {
  for (const spellings of SUPERUSER_HOMES) {
    if (spellings.some((home) => within(normalized, home))) return !ownsHome(spellings, ctx);
  }
  return false;
}

function homeCredential(normalized: string, ctx: PathContext): boolean {
  const home =
    HOME_PREFIX.exec(normalized)?.[0] ?? (within(normalized, ctx.home) ? `${ctx.home}/` : undefined);
  return home !== undefined && HOME_CREDENTIAL_FILES.test(normalized.slice(home.length));
}

/**
 * How a normalised path is protected for an agent working in `ctx`. Credential stores and system
 * trees are protected wherever the agent works; the superuser's home only when it is not the
 * agent's own (see `PathContext`).
 */
export function classifyPath(normalized: string, ctx: PathContext = DEFAULT_PATH_CONTEXT): PathClass {
  for (const pattern of SECRET_FILE_PATTERNS) if (pattern.test(normalized)) return 'secret';
  if (homeCredential(normalized, ctx)) return 'secret';
  if (SYSTEM_TREE.test(normalized) && !HARMLESS_DEVICES.test(normalized)) return 'system';
  for (const pattern of OTHER_SYSTEM_TREES) if (pattern.test(normalized)) return 'system';
  if (superuserHome(normalized, ctx)) return 'home';
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
  // Each working tree and every directory above it.
  if (within(ctx.workspace, normalized)) return true;
  if (ctx.roots?.some((root) => within(root, normalized))) return true;
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
  const cls = classifyPath(normalized, ctx);
  if (cls !== null) {
    findings.push({
      code: 'FILESYSTEM_DENIED',
      message: `${access} of ${describePathClass(cls)} is not allowed`,
      location: `path ${describe(normalized)}`,
    });
  }
  if (access === 'delete' && recursive && isCatastrophicDeleteTarget(normalized, ctx)) {
    findings.push({
      code: 'DEST_MUTATION',
      message: 'recursive delete of the root, a home, a top-level system directory or the workspace',
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
 * git configuration (the keys that name a program), systemd units, desktop autostart entries and
 * launchd jobs. What a write puts there is judged as the command it will be: the scripts whole,
 * the units and entries by their `ExecStart=`/`Exec=` lines, git configuration by its program
 * values, launchd jobs by `Program`/`ProgramArguments`.
 */
const STARTUP_SCRIPT =
  /(?:^|\/)(?:\.bashrc|\.bash_profile|\.bash_login|\.profile|\.zshrc|\.zprofile|\.zshenv|\.zlogin|\.kshrc|\.config\/fish\/config\.fish|\.git\/hooks\/[\w.-]+)$/;
const UNIT_OR_AUTOSTART = /(?:\.service|\.timer|\.desktop)$|\/systemd\/[\w./-]*\.conf$/;
const GIT_CONFIG = /(?:^|\/)(?:\.git\/config|\.gitconfig|\.config\/git\/config)$/;
const LAUNCHD_JOB = /\/Library\/(?:LaunchAgents|LaunchDaemons)\/[^/]+\.plist$/;
/** At most this many commands are taken from one file. */
const MAX_PLANTED_COMMANDS = 64;

/**
 * Git configuration keys whose value is a command git runs by itself (`core.fsmonitor` on every
 * `git status`, a filter on every checkout), as `section.key` with any subsection left out.
 */
const GIT_PROGRAM_KEYS = new Set([
  'core.fsmonitor',
  'core.sshcommand',
  'core.editor',
  'core.pager',
  'core.askpass',
  'core.gitproxy',
  'sequence.editor',
  'filter.clean',
  'filter.smudge',
  'filter.process',
  'diff.textconv',
  'diff.command',
  'diff.external',
  'merge.driver',
  'gpg.program',
  'uploadpack.packobjectshook',
]);

function gitConfigCommands(content: string): string[] {
  const commands: string[] = [];
  let section = '';
  for (const line of content.split('\n')) {
    if (commands.length >= MAX_PLANTED_COMMANDS) break;
    const header = /^\s*\[\s*([A-Za-z0-9.-]+)/.exec(line);
    if (header) {
      section = header[1]!.split('.')[0]!.toLowerCase();
      continue;
    }
    const entry = /^\s*([A-Za-z][A-Za-z0-9-]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!entry) continue;
    const key = `${section}.${entry[1]!.toLowerCase()}`;
    let value = entry[2]!.replace(/^"(.*)"$/, '$1').replace(/\\"/g, '"');
    // `alias.x = !cmd` and `credential.helper = !cmd` run a shell command; without `!` they name git's own.
    if (section === 'alias' || key === 'credential.helper') {
      if (!value.startsWith('!')) continue;
      value = value.slice(1);
    } else if (!GIT_PROGRAM_KEYS.has(key) || /^(?:true|false)$/i.test(value)) continue;
    if (value.trim() !== '') commands.push(value.trim());
  }
  return commands;
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function xmlText(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => XML_ENTITIES[name]!);
}

/** A launchd job's program and its arguments, each quoted so the shell reads them as one word. */
function launchdCommands(content: string): string[] {
  const quote = (word: string) => `'${xmlText(word).replaceAll("'", "'\\''")}'`;
  const args = /<key>\s*ProgramArguments\s*<\/key>\s*<array>([\s\S]*?)<\/array>/.exec(content);
  if (args) {
    const words = [...args[1]!.matchAll(/<string>([\s\S]*?)<\/string>/g)].map((m) => quote(m[1]!));
    if (words.length > 0) return [words.slice(0, 256).join(' ')];
  }
  const program = /<key>\s*Program\s*<\/key>\s*<string>([\s\S]*?)<\/string>/.exec(content);
  return program ? [quote(program[1]!)] : [];
}

export function autoRunCommands(
  rawPath: string,
  content: string,
  ctx: PathContext = DEFAULT_PATH_CONTEXT,
): string[] {
  const normalized = normalizePath(rawPath, ctx);
  if (STARTUP_SCRIPT.test(normalized)) return [content];
  if (GIT_CONFIG.test(normalized)) return gitConfigCommands(content);
  if (LAUNCHD_JOB.test(normalized)) return launchdCommands(content);
  if (!UNIT_OR_AUTOSTART.test(normalized)) return [];
  const commands: string[] = [];
  for (const m of content.matchAll(
    /^\s*(?:Exec(?:Start|StartPre|StartPost|Stop|StopPost|Reload|Condition)?)\s*=\s*[-@:+!]*(.+)$/gm,
  )) {
    if (commands.length >= MAX_PLANTED_COMMANDS) break;
    commands.push(m[1]!.trim());
  }
  return commands;
}
