import { analyzeHost, isTrustedHost } from '../egress.ts';
import { classifyPath, describePathClass, normalizePath, type PathContext } from '../paths.ts';
import {
  describeTarget,
  destructive,
  type Field,
  PARSE_LIMIT,
  push,
  reverseShell,
  type ShellContext,
  type Walk,
} from './state.ts';

/**
 * The paths a command names, in its operands, redirections and embedded text, judged against
 * the privileged paths (globs included).
 */

export function isBlockDevice(path: string): boolean {
  return /^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|disk|mapper\/|md\d|dm-|loop|sr|fd\d|rdisk)/.test(path);
}

/** A path through a link made earlier in the command line names what the link points to. */
export function followLinks(normalized: string, ctx: ShellContext): string {
  if (ctx.links.size === 0) return normalized;
  for (const [link, target] of ctx.links) {
    if (normalized === link || normalized.startsWith(`${link}/`))
      return `${target}${normalized.slice(link.length)}`;
  }
  return normalized;
}

/** Privileged paths a glob is tried against: `cat /e?c/shadow` and `cat /e[t]c/shadow` read /etc/shadow. */
const GLOB_PROBES = [
  '/etc/shadow',
  '/etc/passwd',
  '/etc/sudoers',
  '/etc/ssh/sshd_config',
  '/root/.ssh/id_rsa',
  '/proc/1/environ',
  '/var/run/docker.sock',
  '/run/docker.sock',
  '/var/run/secrets/kubernetes.io/serviceaccount/token',
  '/boot/vmlinuz',
  '/sys/kernel',
];

function globMatchesPrivileged(normalized: string, ctx: ShellContext): string | undefined {
  const home = ctx.paths.home;
  const probes = [
    ...GLOB_PROBES,
    `${home}/.ssh/id_rsa`,
    `${home}/.aws/credentials`,
    `${home}/.kube/config`,
    `${home}/.docker/config.json`,
  ];
  // A path that ends in wildcards alone (`/*`, `build/*`, s3 paths `'/*'`) says nothing about
  // which file is meant; wildcards before a named file do (`cat /*/shadow` reads /etc/shadow).
  const segments = normalized.split('/');
  const last = segments.findLast((part) => part !== '');
  if (last === undefined || /^[*?]+$/.test(last)) return undefined;
  const source = segments
    // `**`, `?*?*`: one run of wildcards is its `?`s then at most one `*`, the same set of names,
    // so the pattern below never holds two unbounded repeats side by side (no backtracking blow-up).
    .map((part) =>
      part.replace(/[*?]{2,}/g, (run) =>
        run.includes('*') ? `${'?'.repeat(run.split('?').length - 1)}*` : run,
      ),
    )
    .map(
      (part) =>
        // A wildcard that opens a name does not match a leading dot (bash without dotglob).
        (/^[*?[]/.test(part) ? '(?!\\.)' : '') +
        part
          .replace(/[.+^${}()|\\]/g, '\\$&')
          // `[!…]` is the glob's negated class; `[…]` reads the same in both.
          .replace(/\[!/g, '[^')
          .replace(/\*/g, '[^/]*')
          .replace(/\?/g, '[^/]'),
    )
    .join('/');
  let pattern: RegExp;
  try {
    pattern = new RegExp(`^${source}$`);
  } catch {
    return undefined;
  }
  return probes.find((probe) => pattern.test(probe));
}

export function judgeRedirect(kind: 'out' | 'in', target: string, walk: Walk): void {
  if (kind === 'out' && isBlockDevice(target)) {
    destructive(walk, 'redirection overwrites a block device', `path ${describeTarget(target)}`);
    return;
  }
  const tcp = /^\/dev\/(tcp|udp)\/([^/]+)\//.exec(target);
  if (tcp) {
    const host = tcp[2]!;
    if (!isTrustedHost(host, walk.ctx.egress))
      reverseShell(walk, `a raw ${tcp[1]} connection to ${describeTarget(host)}`);
    walk.findings.push(...analyzeHost(host, walk.ctx.egress));
    return;
  }
  judgePath(target, walk, kind === 'out');
}

export function judgePath(text: string, walk: Walk, writes: boolean): void {
  if (text === '' || text.length > 4096) return;
  // `/dev/tcp/host/port` is a socket, judged as a destination where it is redirected to.
  if (/^\/dev\/(?:tcp|udp)\//.test(text)) return;
  // Bare words stay inside the working directory, whose own path is judged once up front.
  if (
    !/^[~/.]|^\$\{?HOME|\/|\\|\.ssh|^[A-Za-z]:|^%|[／＼]/.test(text) &&
    walk.ctx.cwd.workspace === walk.ctx.paths.workspace
  )
    return;
  let normalized = followLinks(normalizePath(text, walk.ctx.cwd), walk.ctx);
  if (/[*?[]/.test(normalized) && classifyPath(normalized, walk.ctx.paths) === null)
    normalized = globMatchesPrivileged(normalized, walk.ctx) ?? normalized;
  const cls = classifyPath(normalized, walk.ctx.paths) ?? credentialDirectory(normalized, walk.ctx.paths);
  // Commands that merely read system trees (/etc, /boot, /dev, /proc, /sys) are refused
  // like fs.read: an agent has no task there that a human should not look at first.
  if (cls !== null) {
    push(
      walk,
      'FILESYSTEM_DENIED',
      `${writes ? 'writes to' : 'touches'} ${describePathClass(cls)}`,
      `path ${describeTarget(normalized)}`,
    );
  }
}

/** A directory whose files are credentials (`~/.aws`, `~/.kube`): reading it reads them. */
function credentialDirectory(normalized: string, paths: PathContext): 'secret' | null {
  const dir = normalized.replace(/\/+$/, '');
  for (const file of ['credentials', 'config', 'config.json']) {
    if (classifyPath(`${dir}/${file}`, paths) === 'secret') return 'secret';
  }
  return null;
}

// Absolute or home paths embedded in a larger word: inline code of any interpreter
// (`lua -e 'io.open("/etc/x")'`), response files (`@/etc/x`), `VAR=/etc/x`.
const EMBEDDED_PATH = /(?:^|[\s"'(<=@:,])((?:~|\$HOME)?\/[^\s"'();<>|&,]{1,1024})/g;

export function judgePathsInArgs(args: Field[], walk: Walk): void {
  for (const arg of args) {
    judgePathsInText(arg.text, walk);
    for (const file of arg.reads ?? []) judgePath(file, walk, false);
  }
}

export function judgePathsInText(text: string, walk: Walk): void {
  if (text.length > PARSE_LIMIT) return;
  // `unix:///run/docker.sock`: a socket named as a URL is a path.
  const socket = /^unix:\/\/(\/.*)$/.exec(text);
  if (socket) judgePath(socket[1]!, walk, false);
  if (!text.includes('://')) judgePath(text.startsWith('@') ? text.slice(1) : text, walk, false);
  if (!text.includes('/', 1)) return;
  for (const match of text.matchAll(EMBEDDED_PATH)) {
    const candidate = match[1]!;
    if (candidate !== text && !text.includes(`://${candidate.slice(0, 1)}`))
      judgePath(candidate, walk, false);
  }
}
