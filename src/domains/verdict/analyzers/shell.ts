import sh, { type ShNode } from 'mvdan-sh';
import type { Finding } from '../codes.ts';
import { analyzeHost, analyzeUrl, DEFAULT_EGRESS_SETTINGS, type EgressSettings } from './egress.ts';
import {
  classifyPath,
  DEFAULT_PATH_CONTEXT,
  isCatastrophicDeleteTarget,
  normalizePath,
  type PathContext,
} from './paths.ts';
import { readSimpleScript, type SimpleStatement } from './shell-simple.ts';

// mvdan/sh is the parser behind shfmt. Its GopherJS build (`mvdan-sh`) is synchronous and
// returns the full syntax tree; the WASM build (`sh-syntax`) instantiates a fresh module per
// call (~9 ms) and serialises commands without their words, so it cannot be walked.
const { syntax } = sh;
const parser = syntax.NewParser();

/** Bigger scripts are judged by the linear word splitter rather than the full parser. */
const PARSE_LIMIT = 32 * 1024;
/** How deep `bash -c`, `eval` and inline interpreters may nest before we stop unwrapping. */
const MAX_DEPTH = 6;

export interface ShellContext {
  egress: EgressSettings;
  paths: PathContext;
}

/** One word of a command: its literal text as the shell would pass it, when knowable. */
interface ShWord {
  text: string;
  /** Part of the word comes from an expansion whose value we do not know. */
  dynamic: boolean;
}

interface Redirect {
  kind: 'out' | 'in' | 'heredoc';
  target: string;
}

interface Walk {
  ctx: ShellContext;
  findings: Finding[];
  depth: number;
}

// Redirection operators of mvdan.cc/sh/v3/syntax.RedirOperator.
const REDIR_OUT = new Set([54, 55, 59, 60, 64, 65]);
const REDIR_IN = 56;
const REDIR_HEREDOC = new Set([61, 62, 63]);
const PIPE_OPS = new Set([12, 13]);

function nodeType(node: unknown): string {
  return node ? syntax.NodeType(node as ShNode) : '';
}

function list(value: unknown): ShNode[] {
  return Array.isArray(value) ? (value as ShNode[]) : [];
}

function wordText(word: ShNode | undefined, walk: Walk): ShWord {
  let text = '';
  let dynamic = false;
  for (const part of list(word?.['Parts']))
    collectPart(part, walk, (s, d) => {
      text += s;
      dynamic ||= d;
    });
  return { text, dynamic };
}

function collectPart(part: ShNode, walk: Walk, emit: (text: string, dynamic: boolean) => void): void {
  switch (nodeType(part)) {
    case 'Lit':
      emit(String(part['Value'] ?? ''), false);
      return;
    case 'SglQuoted':
      emit(String(part['Value'] ?? ''), false);
      return;
    case 'DblQuoted':
      for (const inner of list(part['Parts'])) collectPart(inner, walk, emit);
      return;
    case 'ParamExp': {
      const name = String((part['Param'] as ShNode | undefined)?.['Value'] ?? '');
      emit(name === 'HOME' ? '~' : `$${name}`, name !== 'HOME');
      return;
    }
    case 'CmdSubst':
    case 'ProcSubst':
      walkStmts(list(part['Stmts']), walk);
      emit('$(…)', true);
      return;
    default:
      emit('', true);
  }
}

function walkStmts(stmts: ShNode[], walk: Walk): void {
  for (const stmt of stmts) walkStmt(stmt, walk);
}

function redirectsOf(stmt: ShNode, walk: Walk): Redirect[] {
  const out: Redirect[] = [];
  for (const redir of list(stmt['Redirs'])) {
    const op = Number(redir['Op']);
    if (REDIR_HEREDOC.has(op)) {
      const body = (redir['Hdoc'] as ShNode | undefined) ?? (redir['Word'] as ShNode | undefined);
      out.push({ kind: 'heredoc', target: wordText(body, walk).text });
      continue;
    }
    const target = wordText(redir['Word'] as ShNode | undefined, walk).text;
    if (REDIR_OUT.has(op) && !/^\d+$|^-$/.test(target)) out.push({ kind: 'out', target });
    else if (op === REDIR_IN) out.push({ kind: 'in', target });
  }
  return out;
}

function walkStmt(stmt: ShNode, walk: Walk, stdin?: string): void {
  const cmd = stmt['Cmd'] as ShNode | undefined;
  const redirects = redirectsOf(stmt, walk);
  for (const redirect of redirects) judgeRedirect(redirect, walk);
  const heredoc = redirects.find((r) => r.kind === 'heredoc')?.target;
  walkCommand(cmd, walk, heredoc ?? stdin);
}

function walkCommand(cmd: ShNode | undefined, walk: Walk, stdin?: string): void {
  if (!cmd) return;
  switch (nodeType(cmd)) {
    case 'CallExpr': {
      for (const assign of list(cmd['Assigns'])) {
        judgePathsInText(wordText(assign['Value'] as ShNode | undefined, walk).text, walk);
      }
      const words = list(cmd['Args']).map((arg) => wordText(arg, walk));
      if (words.length > 0) judgeCommand(words, walk, stdin);
      return;
    }
    case 'BinaryCmd': {
      const left = cmd['X'] as ShNode;
      const right = cmd['Y'] as ShNode;
      walkStmt(left, walk);
      // `echo 'rm -rf /' | sh`: what a literal printer pipes into a shell is a script.
      walkStmt(right, walk, PIPE_OPS.has(Number(cmd['Op'])) ? literalOutput(left, walk) : undefined);
      return;
    }
    case 'Subshell':
    case 'Block':
      walkStmts(list(cmd['Stmts']), walk);
      return;
    case 'IfClause': {
      let clause: ShNode | undefined = cmd;
      while (clause) {
        walkStmts(list(clause['Cond']), walk);
        walkStmts(list(clause['Then']), walk);
        clause = clause['Else'] as ShNode | undefined;
      }
      return;
    }
    case 'WhileClause':
      walkStmts(list(cmd['Cond']), walk);
      walkStmts(list(cmd['Do']), walk);
      return;
    case 'ForClause':
      walkStmts(list(cmd['Do']), walk);
      return;
    case 'CaseClause':
      for (const item of list(cmd['Items'])) walkStmts(list(item['Stmts']), walk);
      return;
    case 'FuncDecl':
      judgeFunction(cmd, walk);
      walkStmt(cmd['Body'] as ShNode, walk);
      return;
    case 'TimeClause':
    case 'CoprocClause':
      if (cmd['Stmt']) walkStmt(cmd['Stmt'] as ShNode, walk);
      return;
    case 'DeclClause':
      // `export X=v` assigns like `X=v`, and is judged like it (the linear readers see the same).
      for (const assign of list(cmd['Args'])) {
        judgePathsInText(wordText(assign['Value'] as ShNode | undefined, walk).text, walk);
      }
      return;
    default:
      return;
  }
}

function literalOutput(stmt: ShNode, walk: Walk): string | undefined {
  let cmd = stmt['Cmd'] as ShNode | undefined;
  // `a | b | c` parses as `(a | b) | c`: what c reads is what b prints.
  while (cmd && nodeType(cmd) === 'BinaryCmd' && PIPE_OPS.has(Number(cmd['Op']))) {
    cmd = (cmd['Y'] as ShNode | undefined)?.['Cmd'] as ShNode | undefined;
  }
  if (nodeType(cmd) !== 'CallExpr') return undefined;
  return printedLiteral(list(cmd?.['Args']).map((arg) => wordText(arg, { ...walk, findings: [] })));
}

function printedLiteral(words: ShWord[]): string | undefined {
  const name = words[0]?.text;
  if (name === 'echo' || name === 'printf') {
    return words
      .slice(1)
      .filter((w) => !w.text.startsWith('-'))
      .map((w) => w.text)
      .join(' ');
  }
  return undefined;
}

/** A function that calls itself in a pipeline or in the background multiplies without bound. */
function judgeFunction(decl: ShNode, walk: Walk): void {
  const name = String((decl['Name'] as ShNode | undefined)?.['Value'] ?? '');
  const body = decl['Body'] as ShNode | undefined;
  if (name === '' || !body) return;
  const calls: string[] = [];
  let spawns = false;
  const visit = (node: ShNode | undefined): void => {
    if (!node) return;
    const type = nodeType(node);
    if (type === 'Stmt') {
      if (node['Background']) spawns = true;
      visit(node['Cmd'] as ShNode | undefined);
    } else if (type === 'BinaryCmd') {
      if (PIPE_OPS.has(Number(node['Op']))) spawns = true;
      visit(node['X'] as ShNode);
      visit(node['Y'] as ShNode);
    } else if (type === 'Block' || type === 'Subshell') {
      for (const s of list(node['Stmts'])) visit(s);
    } else if (type === 'CallExpr') {
      const first = list(node['Args'])[0];
      if (first) calls.push(wordText(first, { ...walk, findings: [] }).text);
    }
  };
  visit(body);
  if (spawns && calls.filter((c) => c === name).length >= 1) {
    walk.findings.push({
      code: 'DEST_MUTATION',
      message: 'fork bomb',
      location: `function "${name.slice(0, 20)}"`,
    });
  }
}

// ------------------------------------------------------------------------------ commands

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'fish', 'busybox']);
const INTERPRETERS = new Set([
  'python',
  'python2',
  'python3',
  'node',
  'nodejs',
  'ruby',
  'perl',
  'php',
  'deno',
  'bun',
]);
const NETWORK_TOOLS = new Set([
  'curl',
  'wget',
  'nc',
  'ncat',
  'netcat',
  'socat',
  'scp',
  'sftp',
  'rsync',
  'ftp',
  'tftp',
  'ssh',
  'telnet',
  'http',
  'https',
  'xh',
  'aria2c',
  'lftp',
  'smbclient',
  'openssl',
  'nslookup',
  'dig',
  'host',
  'whois',
  'ping',
  'ncftp',
  'ncftpput',
  'axel',
]);

/** Wrappers that run their argument as a command, with the options that take a value. */
const WRAPPERS: Record<string, Set<string>> = {
  sudo: new Set(['-u', '-g', '-h', '-p', '-C', '-D', '-r', '-t', '-U', '-T', '--user', '--group']),
  doas: new Set(['-u', '-C']),
  env: new Set(['-u', '-C', '-S', '--unset', '--chdir']),
  nice: new Set(['-n', '--adjustment']),
  ionice: new Set(['-c', '-n', '-p']),
  time: new Set(['-f', '-o']),
  command: new Set(),
  builtin: new Set(),
  exec: new Set(['-a']),
  nohup: new Set(),
  timeout: new Set(['-s', '-k', '--signal', '--kill-after']),
  stdbuf: new Set(['-i', '-o', '-e']),
  xargs: new Set([
    '-I',
    '-i',
    '-n',
    '-P',
    '-L',
    '-l',
    '-d',
    '-E',
    '-e',
    '-s',
    '-a',
    '--max-args',
    '--delimiter',
  ]),
  watch: new Set(['-n', '-d']),
  chroot: new Set(),
  unbuffer: new Set(),
  strace: new Set(['-o', '-e', '-p']),
  ltrace: new Set(['-o', '-e']),
  su: new Set(['-s', '-g']),
  setsid: new Set(),
  flock: new Set(['-w', '-E']),
  caffeinate: new Set(),
  fakeroot: new Set(),
};
/** Wrappers whose first operand is not the command (timeout's duration, chroot's root...). */
const WRAPPER_OPERANDS: Record<string, number> = { timeout: 1, chroot: 1, flock: 1 };

function baseName(word: string): string {
  const slash = word.lastIndexOf('/');
  return slash >= 0 ? word.slice(slash + 1) : word;
}

function judgeCommand(words: ShWord[], walk: Walk, stdin?: string): void {
  let argv = words;
  for (let guard = 0; guard < 8 && argv.length > 0; guard++) {
    const name = baseName(argv[0]!.text);
    const options = WRAPPERS[name];
    if (options === undefined) break;
    if (name === 'su') {
      const c = argv.findIndex((w) => w.text === '-c' || w.text === '--command');
      const script = c >= 0 ? argv[c + 1] : undefined;
      if (script) analyzeScript(script.text, walk);
      return;
    }
    let i = 1;
    let operands = WRAPPER_OPERANDS[name] ?? 0;
    while (i < argv.length) {
      const text = argv[i]!.text;
      if (name === 'env' && /^[A-Za-z_][A-Za-z0-9_]*=/.test(text)) i++;
      else if (text === '--') {
        i++;
        break;
      } else if (text.startsWith('-') && text.length > 1) i += options.has(text) ? 2 : 1;
      else if (operands > 0) {
        operands--;
        i++;
      } else break;
    }
    argv = argv.slice(i);
  }
  if (argv.length === 0) return;
  const name = baseName(argv[0]!.text);
  const args = argv.slice(1);
  // A disk tool's device operand is judged as destruction below, not as a path read.
  const deviceTool = /^(?:mkfs.*|mke2fs|mkswap|mkdosfs|dd|shred|wipefs|blkdiscard)$/.test(name);
  judgePathsInArgs(deviceTool ? args.filter((a) => !isBlockDevice(a.text.replace(/^of=/, ''))) : args, walk);
  if (SHELLS.has(name)) {
    const c = args.findIndex((w) => /^-[a-z]*c[a-z]*$/.test(w.text));
    if (c >= 0 && args[c + 1]) analyzeScript(args[c + 1]!.text, walk);
    else if (args.length === 0 || args.every((w) => w.text.startsWith('-'))) {
      if (stdin !== undefined) analyzeScript(stdin, walk);
    }
    return;
  }
  if (name === 'eval') {
    analyzeScript(args.map((w) => w.text).join(' '), walk);
    return;
  }
  if (INTERPRETERS.has(name.replace(/[\d.]+$/, '')) || INTERPRETERS.has(name)) {
    const flag = args.findIndex(
      (w) => w.text === '-c' || w.text === '-e' || w.text === '-E' || w.text === '-r' || w.text === '--eval',
    );
    const code = flag >= 0 ? args[flag + 1]?.text : stdin;
    if (code !== undefined) analyzeInlineCode(code, walk);
    return;
  }
  if (NETWORK_TOOLS.has(name)) judgeNetwork(name, args, walk);
  switch (name) {
    case 'rm':
    case 'rmdir':
    case 'unlink':
      judgeRm(name, args, walk);
      return;
    case 'find':
      judgeFind(args, walk);
      return;
    case 'dd':
      for (const arg of args) {
        if (arg.text.startsWith('of=') && isBlockDevice(arg.text.slice(3))) {
          destructive(walk, 'dd writes over a block device', `command "dd"`);
        }
      }
      return;
    case 'shred':
    case 'wipefs':
    case 'blkdiscard':
      if (args.some((a) => isBlockDevice(a.text)) || name !== 'shred') {
        destructive(walk, `${name} destroys a block device`, `command "${name}"`);
      }
      return;
    case 'chmod':
    case 'chown':
    case 'chgrp':
      judgeRecursiveOwnership(name, args, walk);
      return;
    default:
      if (/^mkfs(\.|$)|^mke2fs$|^mkswap$|^mkdosfs$/.test(name)) {
        destructive(walk, `${name} formats a file system`, `command "${name}"`);
      }
  }
}

function destructive(walk: Walk, message: string, location: string): void {
  walk.findings.push({ code: 'DEST_MUTATION', message, location });
}

function isBlockDevice(path: string): boolean {
  return /^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|disk|mapper\/|md\d|dm-|loop|sr|fd\d|rdisk)/.test(path);
}

function isRecursiveFlag(text: string): boolean {
  return text === '--recursive' || (/^-[A-Za-z]+$/.test(text) && /[rR]/.test(text));
}

/** Working-tree wipes: the current directory, its parent, or everything in them. */
function isWorkingTreeWipe(target: string): boolean {
  return /^(\.\/?|\.\.\/?|\*|\.\*|\.\/\*|\.\/\.\*|\.\.\/\*|\*\s*\.\*)$/.test(target);
}

function wipeTarget(word: ShWord, ctx: ShellContext): boolean {
  let target = word.text.trim();
  if (target === '') return false;
  if (isWorkingTreeWipe(target)) return true;
  // `$UNSET/` expands to `/`: a variable we cannot see is assumed empty.
  if (word.dynamic && /^\$[A-Za-z_]\w*\/\*?$/.test(target)) return true;
  target = target.replace(/\/\*$/, '/').replace(/\/\.\*$/, '/');
  if (target === '~' || target === '~/' || (target.startsWith('~') && !target.includes('/', 1))) return true;
  if (word.dynamic && target.startsWith('$')) return false;
  if (!target.startsWith('/') && !target.startsWith('~')) return false;
  return isCatastrophicDeleteTarget(normalizePath(target, ctx.paths), ctx.paths);
}

function judgeRm(name: string, args: ShWord[], walk: Walk): void {
  let recursive = name !== 'rm';
  const targets: ShWord[] = [];
  let options = true;
  for (const arg of args) {
    if (options && arg.text === '--') options = false;
    else if (options && arg.text.startsWith('-') && arg.text.length > 1)
      recursive ||= isRecursiveFlag(arg.text);
    else targets.push(arg);
  }
  if (!recursive && name === 'rm') return;
  for (const target of targets) {
    if (wipeTarget(target, walk.ctx)) {
      destructive(walk, `recursive ${name} of ${describeTarget(target.text)}`, `command "${name}"`);
      return;
    }
  }
}

function describeTarget(target: string): string {
  return target.length > 60 ? `${target.slice(0, 57)}...` : target;
}

const FIND_NARROWING = new Set([
  '-name',
  '-iname',
  '-path',
  '-ipath',
  '-wholename',
  '-iwholename',
  '-regex',
  '-iregex',
  '-newer',
  '-mtime',
  '-mmin',
  '-atime',
  '-amin',
  '-ctime',
  '-cmin',
  '-size',
  '-user',
  '-group',
  '-perm',
  '-empty',
  '-inum',
  '-links',
  '-samefile',
  '-uid',
  '-gid',
  '-lname',
  '-ilname',
]);

function judgeFind(args: ShWord[], walk: Walk): void {
  const roots: ShWord[] = [];
  let i = 0;
  while (i < args.length && /^-[HLP]$/.test(args[i]!.text)) i++;
  while (
    i < args.length &&
    !args[i]!.text.startsWith('-') &&
    args[i]!.text !== '(' &&
    args[i]!.text !== '!'
  ) {
    roots.push(args[i]!);
    i++;
  }
  const rest = args.slice(i).map((w) => w.text);
  const deletes =
    rest.includes('-delete') ||
    rest.some(
      (t, k) =>
        (t === '-exec' || t === '-execdir' || t === '-ok') &&
        /^(rm|shred|unlink)$/.test(baseName(rest[k + 1] ?? '')),
    );
  if (!deletes || rest.some((t) => FIND_NARROWING.has(t))) return;
  const effectiveRoots = roots.length === 0 ? [{ text: '.', dynamic: false }] : roots;
  if (effectiveRoots.some((root) => wipeTarget(root, walk.ctx))) {
    destructive(walk, 'find deletes everything under a root, home or system directory', 'command "find"');
  }
}

function judgeRecursiveOwnership(name: string, args: ShWord[], walk: Walk): void {
  if (
    !args.some((a) => isRecursiveFlag(a.text) && !/[^-rRvfchHLP]/.test(a.text.replace('--recursive', '-R')))
  )
    return;
  const operands = args.filter((a) => !a.text.startsWith('-'));
  for (const target of operands.slice(1)) {
    const text = target.text.replace(/\/\*$/, '/');
    if (!text.startsWith('/')) continue;
    const normalized = normalizePath(text, walk.ctx.paths);
    const parts = normalized.split('/').filter((p) => p !== '');
    if (
      parts.length === 0 ||
      (parts.length === 1 && isCatastrophicDeleteTarget(normalized, walk.ctx.paths))
    ) {
      destructive(walk, `recursive ${name} of ${describeTarget(normalized)}`, `command "${name}"`);
      return;
    }
  }
}

function judgeRedirect(redirect: Redirect, walk: Walk): void {
  if (redirect.kind === 'heredoc') return;
  const target = redirect.target;
  if (redirect.kind === 'out' && isBlockDevice(target)) {
    destructive(walk, 'redirection overwrites a block device', `path ${describeTarget(target)}`);
    return;
  }
  const tcp = /^\/dev\/(tcp|udp)\/([^/]+)\//.exec(target);
  if (tcp) {
    walk.findings.push(...analyzeHost(tcp[2]!, walk.ctx.egress));
    return;
  }
  judgePath(target, walk, redirect.kind === 'out');
}

function judgePath(text: string, walk: Walk, writes: boolean): void {
  if (text === '' || text.length > 4096) return;
  // Bare words stay inside the working directory, whose own path is judged once up front.
  if (!/^[~/.]|^\$\{?HOME|\/|\.ssh/.test(text)) return;
  const normalized = normalizePath(text, walk.ctx.paths);
  const cls = classifyPath(normalized);
  // Commands that merely read system trees (/etc, /boot, /dev, /proc, /sys) are refused
  // like fs.read: an agent has no task there that a human should not look at first.
  if (cls !== null) {
    walk.findings.push({
      code: 'FILESYSTEM_DENIED',
      message: `${writes ? 'writes to' : 'touches'} a ${cls === 'secret' ? 'credential or identity file' : 'protected system path'}`,
      location: `path ${describeTarget(normalized)}`,
    });
  }
}

// Absolute or home paths embedded in a larger word: inline code of any interpreter
// (`lua -e 'io.open("/etc/x")'`), response files (`@/etc/x`), `VAR=/etc/x`.
const EMBEDDED_PATH = /(?:^|[\s"'(<=@:,])((?:~|\$HOME)?\/[^\s"'();<>|&,]{1,1024})/g;

function judgePathsInArgs(args: ShWord[], walk: Walk): void {
  for (const arg of args) judgePathsInText(arg.text, walk);
}

function judgePathsInText(text: string, walk: Walk): void {
  if (text.length > PARSE_LIMIT) return;
  if (!text.includes('://')) judgePath(text.startsWith('@') ? text.slice(1) : text, walk, false);
  if (!text.includes('/', 1)) return;
  for (const match of text.matchAll(EMBEDDED_PATH)) {
    const candidate = match[1]!;
    if (candidate !== text && !text.includes(`://${candidate.slice(0, 1)}`))
      judgePath(candidate, walk, false);
  }
}

const HOST_LIKE =
  /^(?:[a-z0-9-]+\.)+[a-z]{2,}(?::\d+)?(?:\/|$)|^\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?(?:\/|$)|^\[[0-9a-f:.]+\]/i;

function judgeNetwork(name: string, args: ShWord[], walk: Walk): void {
  for (const arg of args) {
    const text = arg.text;
    if (text.startsWith('-') && !text.includes('://')) continue;
    const urlAt = text.indexOf('://');
    if (urlAt > 0) {
      const start = text.slice(0, urlAt).search(/[A-Za-z][A-Za-z0-9+.-]*$/);
      walk.findings.push(...analyzeUrl(text.slice(start), walk.ctx.egress));
      continue;
    }
    const remote = /^(?:[^@\s/]+@)?([^:/\s]+):/.exec(text);
    if ((name === 'scp' || name === 'rsync' || name === 'sftp') && remote && remote[1]!.includes('.')) {
      walk.findings.push(...analyzeHost(remote[1]!, walk.ctx.egress));
      continue;
    }
    const bare = text.replace(/^[^@\s/]+@/, '');
    if (HOST_LIKE.test(bare)) {
      const host = bare.startsWith('[') ? bare.slice(0, bare.indexOf(']') + 1) : bare.split(/[:/]/)[0]!;
      walk.findings.push(...analyzeHost(host, walk.ctx.egress));
    }
  }
}

// ---------------------------------------------------------------- inline interpreter code

const RECURSIVE_DELETE_CALL =
  /\b(?:rmtree|rm_rf|rm_r|remove_dir_all|rmSync|rmdirSync|remove_tree|rimraf(?:\.sync)?|rmdir)\s*\(\s*(?:(?:os\.path\.expanduser|File\.expand_path|path\.resolve)\s*\(\s*)?(['"])([^'"]*)\1/g;
const SHELL_OUT_CALL =
  /\b(?:system|exec|execSync|spawnSync|popen|check_call|check_output|run|call|Popen|getoutput|getstatusoutput|shell_exec|passthru)\s*\(\s*(['"`])([^'"`]*)\1/g;
const BACKTICK_CALL = /`([^`]*)`/g;
const URL_IN_CODE = /\b[a-z][a-z0-9+.-]*:\/\/[^\s'"`)]+/gi;

function analyzeInlineCode(code: string, walk: Walk): void {
  if (code.length > PARSE_LIMIT) return;
  for (const match of code.matchAll(RECURSIVE_DELETE_CALL)) {
    const target = match[2] ?? '';
    if (wipeTarget({ text: target === '' ? '.' : target, dynamic: false }, walk.ctx)) {
      destructive(walk, `inline code removes ${describeTarget(target || '.')} recursively`, 'inline code');
      return;
    }
  }
  for (const match of code.matchAll(SHELL_OUT_CALL)) analyzeScript(match[2] ?? '', walk);
  for (const match of code.matchAll(BACKTICK_CALL)) analyzeScript(match[1] ?? '', walk);
  if (
    /\bfork\b[^;]*\bwhile\b[^;]*\bfork\b|\bwhile\s*\(?\s*(?:1|true|True)\s*\)?\s*:?\s*(?:os\.)?fork\(\)/.test(
      code,
    )
  ) {
    destructive(walk, 'fork bomb', 'inline code');
  }
  for (const match of code.matchAll(URL_IN_CODE))
    walk.findings.push(...analyzeUrl(match[0], walk.ctx.egress));
  for (const match of code.matchAll(/(['"])([^'"]*)\1/g)) judgePath(match[2] ?? '', walk, false);
}

// ---------------------------------------------------------------- entry points

function analyzeScript(script: string, walk: Walk): void {
  if (walk.depth >= MAX_DEPTH || script.trim() === '') return;
  const inner: Walk = { ...walk, depth: walk.depth + 1 };
  parseAndWalk(script, inner);
}

/**
 * Scripts made only of words, plain quotes and `|`/`&`/`;` lists have one reading under
 * any shell grammar, so the linear splitter gives the same commands as the parser at a
 * fraction of the cost. Anything with expansions, redirections, grouping, escapes or
 * comments goes to mvdan/sh.
 */
const TRIVIAL_SCRIPT = /^[^$`\\(){}<>#\n\r!]*$/;

function parseAndWalk(script: string, walk: Walk, fastPaths = true): void {
  if (fastPaths && TRIVIAL_SCRIPT.test(script) && !/"[^"]*'|'[^']*"/.test(script)) {
    walkSplit(script, walk);
    return;
  }
  if (script.length <= PARSE_LIMIT) {
    const simple = fastPaths ? readSimpleScript(script) : undefined;
    if (simple !== undefined) {
      walkSimple(simple, walk);
      return;
    }
    let file: ShNode | undefined;
    try {
      file = parser.Parse(script, '');
    } catch {
      file = undefined;
    }
    if (file) {
      walkStmts(list(file['Stmts']), walk);
      return;
    }
  }
  walkSplit(script, walk);
  if (/:\s*\(\s*\)\s*\{\s*:\s*\|\s*:\s*&/.test(script)) destructive(walk, 'fork bomb', 'function ":"');
}

/** The parser walk's steps for a script the linear reader could take, in the same order. */
function walkSimple(statements: SimpleStatement[], walk: Walk): void {
  let previous: ShWord[] = [];
  for (const stmt of statements) {
    for (const redirect of stmt.redirects) judgeRedirect(redirect, walk);
    for (const value of stmt.assigns) judgePathsInText(value, walk);
    if (stmt.words.length > 0)
      judgeCommand(stmt.words, walk, stmt.piped ? printedLiteral(previous) : undefined);
    previous = stmt.words;
  }
}

const RESERVED_WORDS = new Set([
  '!',
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'do',
  'done',
  'while',
  'until',
  '{',
  '}',
]);

function walkSplit(script: string, walk: Walk): void {
  let previous: ShWord[] = [];
  for (const { words, pipedIn } of splitWords(script)) {
    const stdin = pipedIn ? printedLiteral(previous) : undefined;
    previous = words;
    let start = 0;
    while (start < words.length) {
      const text = words[start]!.text;
      if (RESERVED_WORDS.has(text)) start++;
      else if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(text)) {
        judgePathsInText(text.slice(text.indexOf('=') + 1), walk);
        start++;
      } else break;
    }
    if (start < words.length) judgeCommand(words.slice(start), walk, stdin);
  }
}

/**
 * Quote-aware splitter into simple commands at `;`, `&`, `|`, newlines, parentheses and
 * back-ticks: the fallback for scripts the parser rejects or that are too large for it.
 */
export function splitWords(script: string): { words: ShWord[]; pipedIn: boolean }[] {
  const commands: { words: ShWord[]; pipedIn: boolean }[] = [];
  let pipedIn = false;
  let words: ShWord[] = [];
  let word = '';
  let inWord = false;
  let dynamic = false;
  // Methods rather than arrow functions: named closures cost a defineProperty per call here.
  const at = {
    endWord() {
      if (inWord) words.push({ text: word, dynamic });
      word = '';
      inWord = false;
      dynamic = false;
    },
    endCommand(pipe = false) {
      at.endWord();
      if (words.length > 0) commands.push({ words, pipedIn });
      words = [];
      pipedIn = pipe;
    },
  };
  for (let i = 0; i < script.length; i++) {
    const ch = script[i]!;
    if (ch === "'" || ch === '"') {
      const end = script.indexOf(ch, i + 1);
      const stop = end < 0 ? script.length : end;
      word += script.slice(i + 1, stop);
      inWord = true;
      i = stop;
    } else if (ch === '\\' && i + 1 < script.length) {
      word += script[i + 1];
      inWord = true;
      i++;
    } else if (ch === ' ' || ch === '\t') {
      at.endWord();
    } else if (ch === '|' && script[i + 1] !== '|' && script[i - 1] !== '|') {
      at.endCommand(true);
    } else if (';&|\n()`'.includes(ch)) {
      at.endCommand();
    } else if (ch === '$' && script[i + 1] === '(') {
      at.endCommand();
      i++;
    } else {
      if (ch === '$') dynamic = true;
      word += ch;
      inWord = true;
    }
  }
  at.endCommand();
  return commands;
}

/** Findings for a shell.exec command line. */
export function analyzeShell(
  command: string,
  options: {
    egress?: EgressSettings;
    paths?: PathContext;
    cwd?: string;
    /** False sends the top-level script to mvdan/sh even when a linear reader could take it. */
    fastPaths?: boolean;
  } = {},
): Finding[] {
  const base = options.paths ?? DEFAULT_PATH_CONTEXT;
  const paths = options.cwd ? { ...base, workspace: normalizePath(options.cwd, base) } : base;
  const walk: Walk = {
    ctx: { egress: options.egress ?? DEFAULT_EGRESS_SETTINGS, paths },
    findings: [],
    depth: 0,
  };
  if (options.cwd) judgePath(options.cwd, walk, false);
  parseAndWalk(command, walk, options.fastPaths ?? true);
  return walk.findings;
}
