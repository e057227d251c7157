import { sensitiveFileKind } from '../egress/content.ts';
import { decodeBase64, decodeHex } from './decode.ts';

/**
 * Code handed to an interpreter on its command line (`python -c`, `perl -e`, `node -e`, `ruby -e`,
 * `php -r`, awk programs). It is not parsed as the language: the analyzer looks for the calls that
 * matter — ones that delete, read a path, spawn a command or evaluate more code — and reports what
 * they name. A call whose argument is not a literal it can read makes the code opaque.
 */
export interface InlineCodeHooks {
  /** A shell command line the code would run (`os.system('…')`, backticks, `system("…")`). */
  script(command: string, how: string): void;
  /** An argument vector the code would run (`subprocess.run(['rm', '-rf', '/'])`). */
  argv(argv: string[], how: string): void;
  /** A recursive delete of a literal path. */
  recursiveDelete(path: string, how: string): void;
  /** A path named anywhere in the code (reads, writes, single-file deletes). */
  path(text: string): void;
  /** A URL named in the code. */
  url(text: string): void;
  /** More code of the same language the code would evaluate, already decoded. */
  code(code: string, how: string): void;
  /** Something the code would run that cannot be read statically. */
  opaque(what: string): void;
  /** A reverse shell: a socket wired to a shell or a process. */
  reverseShell(how: string): void;
  /** A fork bomb. */
  forkBomb(): void;
  /**
   * The code sends data out (a request body, a socket or a mail) and reads `what` (a secret or
   * bulk-data file, or the whole environment); `urls` are the URLs the code names, the
   * destinations it may send to (none: built at run time).
   */
  sends(what: string, urls: string[]): void;
  /** The secret file a path holds when it is a copy made earlier in the command line (`cp .env /tmp/x`). */
  copyOf?(path: string): string | undefined;
}

/** Inline code longer than this is not searched; see the verdict README "Budgets". */
export const MAX_INLINE_CODE = 64 * 1024;

const STRING = String.raw`(?:'((?:[^'\\\n]|\\.){0,4096})'|"((?:[^"\\\n]|\\.){0,4096})"|\x60((?:[^\x60\\]|\\.){0,4096})\x60|q\{([^}\n]{0,4096})\}|q\(([^)\n]{0,4096})\))`;

function unquote(match: RegExpExecArray | RegExpMatchArray, first: number): string {
  const raw =
    match[first] ?? match[first + 1] ?? match[first + 2] ?? match[first + 3] ?? match[first + 4] ?? '';
  return raw.replace(/\\(.)/g, '$1');
}

/** Expressions for the user's home directory in each language. */
const HOME_EXPRESSION =
  /^(?:(?:require\(['"]os['"]\)|os)\.homedir\(\)|os\.path\.expanduser\(\s*['"]~['"]\s*\)|Path\.home\(\)|pathlib\.Path\.home\(\)|Dir\.home|ENV\[['"]HOME['"]\]|\$ENV\{HOME\}|process\.env\.HOME|os\.environ\[['"]HOME['"]\]|Sys\.getenv\(['"]HOME['"]\)|getenv\(['"]HOME['"]\))/;

const DELETE_CALL_NAMES = String.raw`shutil\.rmtree|rmtree|fs\.rm|fs\.rmdir|fs\.promises\.rmdir|remove_tree|rm_rf|rm_r|FileUtils\.rm_rf|FileUtils\.remove_dir|remove_dir_all|rimraf(?:\.sync)?|fs\.rmSync|rmSync|fs\.rmdirSync|rmdirSync|fs\.promises\.rm|fsPromises\.rm|Deno\.removeSync|Deno\.remove|FileUtils\.rm_r`;

/** A recursive delete of the home directory written as an expression, not a string. */
const HOME_DELETE = new RegExp(String.raw`\b(?:${DELETE_CALL_NAMES})\s*\(\s*([^,)]{1,80}(?:\(\))?)`, 'g');

/** R's and PHP's `unlink(path, recursive = TRUE)`, Lua/others' `os.execute`. */
const RECURSIVE_UNLINK = /\bunlink\s*\(\s*(['"])([^'"]{0,1024})\1\s*,\s*recursive\s*=\s*(?:TRUE|T)\b/g;
/** `for … in os.walk('/')` with a remove: every file under the root. */
const WALK_DELETE = /\bos\.walk\s*\(\s*(['"])([^'"]{0,1024})\1\s*\)/g;
/** Perl and Ruby call exec/system without parentheses: `exec "/bin/sh", "-c", "…"`. */
const BARE_SPAWN = /\b(?:exec|system)\s+((?:(['"])(?:(?!\2)[^\\]|\\.){0,1024}\2\s*,?\s*){1,16})/g;

/** Calls that remove a whole tree. */
const RECURSIVE_DELETE = new RegExp(
  String.raw`\b(?:shutil\.rmtree|rmtree|fs\.rm|fs\.rmdir|fs\.promises\.rmdir|remove_tree|rm_rf|rm_r|FileUtils\.rm_rf|FileUtils\.remove_dir|remove_dir_all|rimraf(?:\.sync)?|fs\.rmSync|rmSync|fs\.rmdirSync|rmdirSync|fs\.promises\.rm|fsPromises\.rm|Deno\.removeSync|Deno\.remove|FileUtils\.rm_r)\s*\(\s*(?:(?:os\.path\.expanduser|os\.path\.abspath|File\.expand_path|path\.resolve|(?:pathlib\.)?Path)\s*\(\s*)?${STRING}`,
  'g',
);

/** Calls that run a shell command line given as one string. */
const SHELL_STRING_CALL = new RegExp(
  String.raw`\b(?:os\.system|os\.popen|os\.execute|io\.popen|system|popen|shell_exec|passthru|proc_open|execSync|spawnSync|subprocess\.(?:run|call|check_call|check_output|Popen|getoutput|getstatusoutput)|commands\.getoutput|IO\.popen|Open3\.\w+|child_process\.\w+|execa(?:Sync|Command(?:Sync)?)?|Bun\.spawnSync|qx)\s*\(\s*${STRING}(?=\s*[,)])`,
  'g',
);

/** The same calls given a list: `subprocess.run(['rm', '-rf', '/'])`, `spawnSync('rm', ['-rf', '/'])`. */
const ARGV_CALL =
  /\b(?:subprocess\.(?:run|call|check_call|check_output|Popen)|os\.exec[lv]p?e?|spawn|spawnSync|execFile|execFileSync|execa|Bun\.spawn(?:Sync)?|system|exec)\s*\(\s*(?:(['"])([^'"\n]{1,256})\1\s*,\s*)?\[([^\]]{0,2048})\]/g;

/** Backticks and `%x(…)` / `qx{…}` run a shell command in Ruby, Perl and PHP. */
const BACKTICKS = /(?:`([^`]{1,4096})`|%x\(([^)]{1,4096})\)|qx\{([^}]{1,4096})\}|qx\(([^)]{1,4096})\))/g;

/** Calls that start a process; their first argument must be a literal or a list of literals. */
const SPAWN_CALL =
  /(?<![\w$])(?:os\.(?:system|popen|exec[lv]p?e?|spawn[lv]p?e?|posix_spawnp?)|subprocess\.(?:run|call|check_call|check_output|Popen|getoutput|getstatusoutput)|pty\.spawn|commands\.getoutput|(?:child_process\.)?(?:execSync|execFileSync|spawnSync|exec|execFile|spawn)|shell_exec|passthru|proc_open|popen|system|IO\.popen|Open3\.\w+|Kernel\.(?:system|exec|spawn)|Process\.spawn|Bun\.spawn(?:Sync)?|Deno\.run|new\s+Deno\.Command)\s*\(/g;

/** An argument that is a literal (or a list of literals) followed by `,` or `)`. */
const LITERAL_ARGUMENT = new RegExp(
  String.raw`^\s*(?:${STRING}|\[\s*(?:${STRING}\s*,?\s*){0,64}\]|qw\s*(?:\([^)]{0,1024}\)|\[[^\]]{0,1024}\]|\{[^}]{0,1024}\}|\/[^/]{0,1024}\/))\s*[,)]`,
);

/** `'rmt' + 'ree'`, `"a" "b"` (Python), `'a' . 'b'` (Perl, PHP): one literal, as the language reads it. */
function joinLiterals(code: string): string {
  let out = code;
  for (let pass = 0; pass < 8; pass++) {
    const next = out.replace(
      /(['"])((?:(?!\1)[^\\\n]|\\.){0,1024})\1\s*(?:\+|\.(?=\s)|(?=\s*['"]))\s*(['"])((?:(?!\3)[^\\\n]|\\.){0,1024})\3/g,
      (_m, q: string, a: string, _q2: string, b: string) => `${q}${a}${b}${q}`,
    );
    if (next === out) break;
    out = next;
  }
  return out;
}

/**
 * Names bound by imports and requires, rewritten to the module path the patterns know:
 * `import subprocess as s` makes `s.run(` read `subprocess.run(`, `from os import system as x`
 * makes `x(` read `os.system(`, `const cp = require('child_process')` makes `cp.exec(` read
 * `child_process.exec(`. `__import__('os')`, `importlib.import_module('os')`, `require('os')` and
 * `getattr(os, 'system')` are written out the same way.
 */
function resolveBindings(code: string): string {
  let out = joinLiterals(code)
    .replace(/\bsys\.executable\b/g, "'python3'")
    .replace(/\bprocess\.execPath\b/g, "'node'")
    .replace(/\b(?:__import__|importlib\.import_module)\s*\(\s*(['"])([\w.]+)\1\s*\)/g, '$2')
    .replace(/\brequire\s*\(\s*(['"`])(?:node:)?([\w/]+)\1\s*\)(?=\s*\.)/g, (_, _q, m: string) =>
      m.replace(/\//g, '.'),
    )
    .replace(/\bgetattr\s*\(\s*([\w.]+)\s*,\s*(['"])(\w+)\2\s*\)/g, '$1.$3');
  const renames: [RegExp, string][] = [];
  for (const m of out.matchAll(/\bimport\s+([\w.]+)\s+as\s+(\w+)/g)) {
    renames.push([new RegExp(String.raw`(?<![\w.$])${m[2]}\.`, 'g'), `${m[1]}.`]);
  }
  for (const m of out.matchAll(/\bfrom\s+([\w.]+)\s+import\s+\(?([\w\s,]+)\)?/g)) {
    for (const item of m[2]!.split(',')) {
      const parts = item.trim().split(/\s+as\s+/);
      const name = parts[0]?.trim();
      const local = (parts[1] ?? parts[0])?.trim();
      if (!name || !local || !/^\w+$/.test(name) || !/^\w+$/.test(local)) continue;
      renames.push([new RegExp(String.raw`(?<![\w.$])${local}(?=\s*[.(])`, 'g'), `${m[1]}.${name}`]);
    }
  }
  for (const m of out.matchAll(
    /\b(?:const|let|var)\s+(\w+)\s*=\s*require\s*\(\s*(['"`])(?:node:)?([\w/]+)\2\s*\)/g,
  )) {
    renames.push([new RegExp(String.raw`(?<![\w.$])${m[1]}\.`, 'g'), `${m[3]!.replace(/\//g, '.')}.`]);
  }
  for (const m of out.matchAll(
    /\b(?:const|let|var)\s*\{([^}]{1,512})\}\s*=\s*require\s*\(\s*(['"`])(?:node:)?([\w/]+)\2\s*\)/g,
  )) {
    for (const item of m[1]!.split(',')) {
      const [name, local] = item.split(':').map((x) => x.trim());
      if (!name || !/^\w+$/.test(name)) continue;
      const bound = local && /^\w+$/.test(local) ? local : name;
      renames.push([new RegExp(String.raw`(?<![\w.$])${bound}(?=\s*\()`, 'g'), `${m[3]}.${name}`]);
    }
  }
  for (const [pattern, replacement] of renames.slice(0, 64)) out = out.replace(pattern, replacement);
  return out;
}

/** Evaluation of more code: `exec(…)`, `eval(…)`, `Function(…)`, `instance_eval`. */
const EVAL_CALL = /\b(?:exec|eval|Function|instance_eval|class_eval|module_eval|compile|assert)\s*\(/g;

const DECODED_EVAL = new RegExp(
  String.raw`\b(?:exec|eval)\s*\(\s*(?:compile\s*\(\s*)?(?:base64\.b64decode|b64decode|base64_decode|decode_base64|atob|Buffer\.from|Base64\.decode64|codecs\.decode)\s*\(\s*${STRING}`,
  'g',
);

const HEX_DECODED_EVAL = new RegExp(
  String.raw`\b(?:exec|eval)\s*\(\s*(?:compile\s*\(\s*)?(?:bytes\.fromhex|binascii\.(?:unhexlify|a2b_hex)|bytearray\.fromhex)\s*\(\s*${STRING}`,
  'g',
);

const LITERAL_EVAL = new RegExp(String.raw`\b(exec|eval)\s*\(\s*${STRING}\s*[,)]`, 'g');

/** Groovy's `"cmd".execute()`, Scala's `"cmd".!` and `Process("cmd").!!`: a command line run. */
const STRING_RUN = new RegExp(
  String.raw`${STRING}\s*\)?\s*\.\s*(?:execute\s*\(|!!?(?![=\w])|lazyLines|lineStream)`,
  'g',
);
/** Swift's `FileManager.default.removeItem(atPath: "/")`: a tree removed. */
const SWIFT_REMOVE = new RegExp(
  String.raw`\bremoveItem\s*\(\s*at(?:Path)?\s*:\s*(?:URL\s*\(\s*fileURLWithPath\s*:\s*)?${STRING}`,
  'g',
);
/** Perl's `system qw(rm -rf /)`: a list of words, no shell. */
const PERL_QW_SPAWN =
  /\b(?:system|exec)\s*\(?\s*qw\s*(?:\(([^)]{1,1024})\)|\[([^\]]{1,1024})\]|\{([^}]{1,1024})\}|\/([^/]{1,1024})\/)/g;

const URL_IN_CODE = /\b[a-z][a-z0-9+.-]{0,31}:\/\/[^\s'"`)]+/gi;

/**
 * Calls that send data out rather than only fetch: a POST, PUT or PATCH (`requests.post`,
 * `axios.put`, `fetch(u, {method: 'POST', body})`, `Net::HTTP.post`), a request body (`data=`,
 * `body:`), a socket or stream write, an upload (`storbinary`, `upload_file`, `CURLOPT_POSTFIELDS`)
 * or a mail (`sendmail`, `send_message`).
 */
const SEND_CALL =
  /\.(?:post|put|patch)\s*\(|\b(?:post|put|patch)_?(?:form|json)?\s*\(|\bdata\s*=|\bbody\s*[:=]|\bfiles\s*=|\bjson\s*=|\bmethod\s*[:=>]+\s*['"](?:POST|PUT|PATCH)['"]|\b(?:send|sendall|sendto|sendfile|sendmail|send_message|storbinary|storlines|upload_file|upload_fileobj|put_object)\s*\(|\.write\s*\(|\.end\s*\(\s*[^)\s]|CURLOPT_POST|HTTP::Request->new\s*\(\s*['"]?POST|\bPOST\s*=>|['"]POST['"]/;

/** The whole environment as a value: `dict(os.environ)`, `JSON.stringify(process.env)`, `ENV.to_h`. */
const WHOLE_ENVIRONMENT =
  /\b(?:dict|str|repr|json\.dumps)\s*\(\s*(?:dict\s*\(\s*)?os\.environ\s*\)|\bos\.environ\.(?:copy|items)\s*\(|\bJSON\.stringify\s*\(\s*process\.env\s*\)|\bbody\s*:\s*process\.env\b|\bENV\.to_h\b|\bENV\.to_a\b|\bgetenv\s*\(\s*\)|%ENV\b/;
const STRING_LITERAL = /(['"])((?:(?!\1)[^\\\n]|\\.){1,1024})\1/g;

function listItems(list: string): string[] | undefined {
  const items: string[] = [];
  for (const part of list.split(',')) {
    const m = /^\s*(['"])(.*)\1\s*$/.exec(part);
    if (!m) {
      if (part.trim() === '') continue;
      return undefined;
    }
    items.push(m[2]!);
  }
  return items;
}

/** awk: `system("…")`, `"cmd" | getline`, `print … | "sh"`. */
function analyzeAwk(program: string, hooks: InlineCodeHooks): void {
  for (const m of program.matchAll(/\bsystem\s*\(\s*"((?:[^"\\]|\\.){0,4096})"\s*\)/g)) {
    hooks.script(m[1]!.replace(/\\(.)/g, '$1'), 'awk system()');
  }
  if (/\bsystem\s*\(\s*[^"\s)]/.test(program)) hooks.opaque('awk system() of a computed command');
  for (const m of program.matchAll(/"((?:[^"\\]|\\.){0,4096})"\s*\|\s*getline/g)) {
    hooks.script(m[1]!.replace(/\\(.)/g, '$1'), 'awk getline');
  }
  const toShell = /\|\s*"(?:\/bin\/)?(?:ba|z|da|k)?sh"/;
  if (toShell.test(program)) {
    // `print "rm -rf /" | "sh"` runs the literal; anything computed is opaque.
    const literal = /\bprint(?:f)?\s+"((?:[^"\\]|\\.){0,4096})"\s*\|\s*"(?:\/bin\/)?(?:ba|z|da|k)?sh"/.exec(
      program,
    );
    if (literal && !/\bprint(?:f)?\s+[^"|]/.test(program.replace(literal[0], '')))
      hooks.script(literal[1]!.replace(/\\(.)/g, '$1'), 'awk print | sh');
    else hooks.opaque('awk prints commands into a shell');
  }
  // gawk's `/inet/tcp/…` special files are network connections.
  if (/\/inet[46]?\/(?:tcp|udp)\//.test(program)) {
    if (/\bsystem\s*\(|\|&|getline/.test(program))
      hooks.reverseShell('gawk reads commands from a /inet socket');
    else hooks.reverseShell('gawk opens a /inet network socket');
  }
}

/**
 * Tcl and expect (`exec rm -rf /`, `spawn …`), Julia (`rm(p; recursive=true)`, run(`…`)), Elixir
 * (`File.rm_rf!`, `System.cmd`, `:os.cmd`) and AppleScript (`do shell script "…"`).
 */
function analyzeOtherLanguages(code: string, language: InlineLanguage, hooks: InlineCodeHooks): void {
  if (language === 'tcl') {
    for (const m of code.matchAll(/(?:^|[;\n[{])\s*(?:exec|spawn)\s+((?:-\S+\s+)*)([^;\n\]}]+)/g)) {
      const words = [...m[2]!.matchAll(/"([^"]*)"|\{([^}]*)\}|(\S+)/g)].map((w) => w[1] ?? w[2] ?? w[3]!);
      // A socket's lines run by exec is a reverse shell, judged below; anything else computed is opaque.
      if (words.some((w) => w.startsWith('$') || w.startsWith('['))) {
        if (!/\bsocket\b/.test(code)) hooks.opaque('Tcl runs a command built at run time');
      } else if (words.length > 0) hooks.argv(words, 'inline code');
    }
    if (/\bfile\s+delete\s+-force\b/.test(code)) {
      for (const m of code.matchAll(/\bfile\s+delete\s+-force\s+(?:--\s+)?(?:"([^"]+)"|(\S+))/g))
        hooks.recursiveDelete(m[1] ?? m[2]!, 'inline code');
    }
  }
  if (language === 'julia') {
    for (const m of code.matchAll(
      new RegExp(String.raw`\brm\s*\(\s*${STRING}[^)]*recursive\s*=\s*true`, 'g'),
    ))
      hooks.recursiveDelete(unquote(m, 1), 'inline code');
    for (const m of code.matchAll(/\brun\s*\(\s*`([^`]*)`/g)) hooks.script(m[1]!, 'inline code');
  }
  if (language === 'elixir') {
    for (const m of code.matchAll(new RegExp(String.raw`\bFile\.rm_rf!?\s*\(?\s*${STRING}`, 'g')))
      hooks.recursiveDelete(unquote(m, 1), 'inline code');
    for (const m of code.matchAll(/\bSystem\.cmd\s*\(?\s*"([^"]+)"\s*,\s*\[([^\]]*)\]/g)) {
      const items = listItems(m[2]!);
      if (items === undefined) hooks.opaque('a process started with computed arguments');
      else hooks.argv([m[1]!, ...items], 'inline code');
    }
    for (const m of code.matchAll(/:os\.cmd\s*\(\s*'([^']*)'/g)) hooks.script(m[1]!, 'inline code');
  }
  if (language === 'applescript') {
    for (const m of code.matchAll(/\bdo\s+shell\s+script\s+"((?:[^"\\]|\\.)*)"/g))
      hooks.script(m[1]!.replace(/\\(.)/g, '$1'), 'inline code');
    if (/\bdo\s+shell\s+script\s+(?!")/.test(code))
      hooks.opaque('AppleScript runs a command built at run time');
  }
}

export type InlineLanguage =
  | 'python'
  | 'node'
  | 'ruby'
  | 'perl'
  | 'php'
  | 'awk'
  | 'tcl'
  | 'julia'
  | 'elixir'
  | 'applescript'
  | 'other';

export function languageOf(program: string): InlineLanguage {
  if (/^python/.test(program) || program === 'pypy3' || program === 'pypy') return 'python';
  if (program === 'node' || program === 'nodejs' || program === 'deno' || program === 'bun') return 'node';
  if (program === 'ruby' || program === 'irb') return 'ruby';
  if (program === 'perl') return 'perl';
  if (program === 'php') return 'php';
  if (/^[gmn]?awk$/.test(program) || program === 'busybox-awk') return 'awk';
  if (/^(?:tclsh[\d.]*|wish|expect)$/.test(program)) return 'tcl';
  if (program === 'julia') return 'julia';
  if (program === 'elixir' || program === 'iex') return 'elixir';
  if (program === 'osascript') return 'applescript';
  return 'other';
}

export function analyzeInlineCode(source: string, language: InlineLanguage, hooks: InlineCodeHooks): void {
  if (source.length > MAX_INLINE_CODE) {
    hooks.opaque(`inline code longer than ${MAX_INLINE_CODE} characters`);
    return;
  }
  if (language === 'awk') {
    analyzeAwk(source, hooks);
    return;
  }
  analyzeOtherLanguages(source, language, hooks);
  const code = resolveBindings(source);
  for (const m of code.matchAll(RECURSIVE_DELETE)) hooks.recursiveDelete(unquote(m, 1) || '.', 'inline code');
  for (const m of code.matchAll(HOME_DELETE)) {
    const after = code.slice((m.index ?? 0) + m[0].length - m[1]!.length, (m.index ?? 0) + m[0].length + 80);
    if (HOME_EXPRESSION.test(after.trim())) hooks.recursiveDelete('~', 'inline code');
  }
  for (const m of code.matchAll(RECURSIVE_UNLINK)) hooks.recursiveDelete(m[2] || '.', 'inline code');
  if (/\b(?:os\.remove|os\.unlink|os\.rmdir|shutil\.rmtree|unlink)\b/.test(code)) {
    for (const m of code.matchAll(WALK_DELETE)) hooks.recursiveDelete(m[2] || '.', 'inline code');
  }
  if (language === 'perl' || language === 'ruby') {
    // `rmtree "/usr"`, `remove_tree '/'` (Perl's File::Path without parentheses).
    for (const m of code.matchAll(/\b(?:rmtree|remove_tree|rm_rf|rm_r)\s+(['"])([^'"\n]{1,1024})\1/g)) {
      hooks.recursiveDelete(m[2]!, 'inline code');
    }
    for (const m of code.matchAll(BARE_SPAWN)) {
      const items = [...m[1]!.matchAll(/(['"])((?:(?!\1)[^\\]|\\.)*)\1/g)].map((q) =>
        q[2]!.replace(/\\(.)/g, '$1'),
      );
      if (items.length === 1) hooks.script(items[0]!, 'inline code');
      else if (items.length > 1) hooks.argv(items, 'inline code');
    }
  }
  for (const m of code.matchAll(SHELL_STRING_CALL)) hooks.script(unquote(m, 1), 'inline code');
  for (const m of code.matchAll(STRING_RUN)) hooks.script(unquote(m, 1), 'inline code');
  for (const m of code.matchAll(SWIFT_REMOVE)) hooks.recursiveDelete(unquote(m, 1), 'inline code');
  if (language === 'perl')
    for (const m of code.matchAll(PERL_QW_SPAWN))
      hooks.argv((m[1] ?? m[2] ?? m[3] ?? m[4] ?? '').trim().split(/\s+/), 'inline code');
  // `exec("…")` runs a shell command in Ruby, Perl, PHP and child_process; in Python it runs Python.
  const execIsShell = language !== 'python' && (language !== 'node' || /child_process/.test(code));
  for (const m of code.matchAll(LITERAL_EVAL)) {
    const literal = unquote(m, 2);
    if (m[1] === 'exec' && execIsShell) hooks.script(literal, 'inline code');
    else hooks.code(literal, `${m[1]}() of a literal`);
  }
  for (const m of code.matchAll(ARGV_CALL)) {
    const items = listItems(m[3] ?? '');
    // os.execvp(file, [argv0, …]) repeats the program; spawn(file, [args]) does not.
    const repeats = /^os\.exec/.test(m[0]);
    if (items === undefined) hooks.opaque('a process started with computed arguments');
    else hooks.argv(m[2] && !repeats ? [m[2], ...items] : items, 'inline code');
  }
  if (language === 'ruby' || language === 'perl' || language === 'php') {
    for (const m of code.matchAll(BACKTICKS)) hooks.script(m[1] ?? m[2] ?? m[3] ?? m[4] ?? '', 'inline code');
  }
  for (const m of code.matchAll(SPAWN_CALL)) {
    // Ruby's and Perl's `exec`/`system` take bare lists too (BARE_SPAWN); Python's exec runs Python.
    if (/^(?:exec|system)\b/.test(m[0]) && (language === 'python' || !execIsShell)) continue;
    const rest = code.slice((m.index ?? 0) + m[0].length, (m.index ?? 0) + m[0].length + 8192);
    if (!LITERAL_ARGUMENT.test(rest)) {
      hooks.opaque('a command computed at run time');
      break;
    }
  }
  for (const m of code.matchAll(DECODED_EVAL)) {
    const decoded = decodeBase64(unquote(m, 1));
    if (decoded !== undefined) hooks.code(decoded, 'decoded and evaluated code');
  }
  for (const m of code.matchAll(HEX_DECODED_EVAL)) {
    const decoded = decodeHex(unquote(m, 1), true);
    if (decoded !== undefined) hooks.code(decoded, 'decoded and evaluated code');
  }
  // `fetch(u).then(r => r.text()).then(eval)`: eval handed what a promise or callback yields.
  if (/[(,]\s*(?:eval|exec|Function|vm\.runInThisContext|vm\.runInNewContext)\s*[),]/.test(code)) {
    hooks.opaque('code that evaluates what a callback yields');
  }
  // eval/exec of anything but a plain literal (or a literal decoded above): code computed at run
  // time, fetched or read, cannot be judged.
  for (const m of code.matchAll(EVAL_CALL)) {
    if (!/^(?:exec|eval|Function)\b/.test(m[0]) || /[.\w$]$/.test(code.slice(0, m.index ?? 0))) continue;
    if (m[0].startsWith('exec') && execIsShell) continue;
    const rest = code.slice((m.index ?? 0) + m[0].length, (m.index ?? 0) + m[0].length + 8192);
    if (/^\s*(['"])(?:(?!\1)[^\\]|\\.)*\1\s*[,)]/.test(rest)) continue;
    if (
      /^\s*(?:compile\s*\(\s*)?(?:base64\.b64decode|b64decode|bytes\.fromhex|binascii\.unhexlify)\s*\(\s*(['"])[\w+/=\s-]*\1\s*\)/.test(
        rest,
      )
    )
      continue;
    const fetched =
      /\b(?:urlopen|requests\.|urllib|http\.|https\.|fetch\(|get\(|read\(|readFileSync|open\(|File\.read|IO\.read|Net::HTTP|LWP|file_get_contents|socket|recv|input\(|stdin|\$_(?:GET|POST|REQUEST))/.test(
        rest.slice(0, 400),
      );
    hooks.opaque(
      fetched ? 'code that evaluates what it fetched or read' : 'code that evaluates text built at run time',
    );
    break;
  }
  if (
    /\b(?:socket|fsockopen|pfsockopen|TCPSocket|net\.connect|createConnection|create_connection|IO::Socket|Socket\.new|stream_socket_client)\b|\.tcp\(\)|require\(['"](?:net|tls)['"]\)/.test(
      code,
    ) &&
    /\b(?:pty\.spawn|dup2|subprocess|proc_open|popen|os\.execute|spawn\s*\(|exec\s*[\s(]|\/bin\/(?:ba|z|da)?sh|['"](?:ba|z|da)?sh['"]|cmd\.exe|-i\s*<&)/.test(
      code,
    )
  ) {
    hooks.reverseShell('inline code wires a socket to a shell');
  }
  if (
    /\bfork\b[^;]*\bwhile\b[^;]*\bfork\b|\bwhile\s*\(?\s*(?:1|true|True)\s*\)?\s*[:{]?\s*(?:os\.|Process\.|pcntl_)?fork\s*\(?\)?|\bfork\s*(?:\(\s*\))?\s+(?:while|until)\s+(?:1|!?0|true)\b|\bloop\s*(?:do|\{)\s*(?:Process\.)?fork\b|\bfor\s*\(\s*;\s*;\s*\)\s*\{?\s*(?:pcntl_)?fork\s*\(/.test(
      code,
    )
  ) {
    hooks.forkBomb();
  }
  const urls = [...code.matchAll(URL_IN_CODE)].map((m) => m[0]);
  for (const url of urls) hooks.url(url);
  const literals = [...code.matchAll(STRING_LITERAL)].map((m) => m[2]!.replace(/\\(.)/g, '$1'));
  for (const text of literals) hooks.path(text);
  if (SEND_CALL.test(code)) {
    // What a curl upload of the same file or of `env` would be: the same rule for the same data.
    const file = literals
      .filter((text) => !text.includes('://'))
      .map((text) => (sensitiveFileKind(text) !== undefined ? text : hooks.copyOf?.(text)))
      .find((text) => text !== undefined);
    if (file !== undefined) {
      const base = file.slice(file.lastIndexOf('/') + 1).slice(0, 60);
      hooks.sends(`${base} (a ${sensitiveFileKind(file) ?? 'file that holds secrets or bulk data'})`, urls);
    } else if (WHOLE_ENVIRONMENT.test(code)) hooks.sends('the environment (its secrets)', urls);
  }
}
