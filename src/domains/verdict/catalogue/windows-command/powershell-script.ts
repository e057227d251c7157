import { lookupTable } from '../../../../lib/lookup-table.ts';
import {
  bindCmdlet,
  cmdletName,
  type PsStatement,
  type PsWord,
  readPowerShell,
} from '../windows-powershell.ts';
import { requote } from './names.ts';
import { judgeDeleteTarget, judgePath, judgePathWord } from './paths.ts';
import { destructive, MAX_DEPTH, nestedState, opaque, overBudget, type State } from './state.ts';

/**
 * PowerShell scripts judged statement by statement: cmdlets and their paths, web requests,
 * Invoke-Expression, .NET deletes and recursive Remove-Item.
 */

const KEYWORDS = new Set([
  'if',
  'elseif',
  'else',
  'foreach',
  'for',
  'while',
  'do',
  'until',
  'switch',
  'try',
  'catch',
  'finally',
  'function',
  'filter',
  'param',
  'return',
  'throw',
  'trap',
  'break',
  'continue',
  'exit',
  'begin',
  'process',
  'end',
  'data',
  'class',
  'enum',
]);

/** Cmdlets and methods that fetch content from the network. */
const FETCH =
  /\b(?:Invoke-WebRequest|Invoke-RestMethod|iwr|irm|curl|wget|Net\.WebClient|DownloadString|DownloadData|DownloadFile|Start-BitsTransfer|HttpClient|GetStringAsync)\b/i;

export function readPowerShellScript(script: string, state: State): void {
  if (state.depth > MAX_DEPTH) {
    overBudget(state, `more than ${MAX_DEPTH} levels of nested shells or Invoke-Expression`);
    return;
  }
  const { statements, truncated } = readPowerShell(script);
  if (truncated) overBudget(state, 'a PowerShell script longer or deeper than the reader reads');
  for (const statement of statements) judgeStatement(statement, state);
  if (deletesShadowCopies(script)) {
    destructive(
      state,
      "deletes the volume shadow copies, the machine's restore points",
      'command "Win32_ShadowCopy"',
    );
  }
  for (const { target, how } of recursiveDeleteCalls(script)) judgeDeleteTarget(target, state, how);
}

/**
 * .NET calls that delete a directory tree: `[IO.Directory]::Delete(p, $true)`,
 * `(Get-Item p).Delete($true)`, `[IO.DirectoryInfo]::new(p).Delete($true)`,
 * `[Microsoft.VisualBasic.FileIO.FileSystem]::DeleteDirectory(p, 'DeleteAllContents')`. The path
 * may be a literal, a variable PowerShell knows (`$env:USERPROFILE`, `${env:SystemDrive}`, `$HOME`,
 * `$PWD`), `[Environment]::GetFolderPath('UserProfile')` or those joined with `+`. A second argument
 * the POSIX reading erased (`"…Delete($env:X, $true)"` in double quotes arrives as `Delete(…, )`)
 * is read as `$true`.
 */
function recursiveDeleteCalls(script: string): { target: string; how: string }[] {
  const out: { target: string; how: string }[] = [];
  const calls =
    /\[(?:System\.)?IO\.Directory\]::Delete\(|\[Microsoft\.VisualBasic\.FileIO\.FileSystem\]::DeleteDirectory\(|\(\s*(?:Get-Item|gi)\s+|\[(?:System\.)?IO\.DirectoryInfo\]::new\(|New-Object\s+(?:System\.)?IO\.DirectoryInfo\s*\(?/gi;
  for (const call of script.matchAll(calls)) {
    const at = call.index + call[0].length;
    const head = call[0].toLowerCase();
    if (head.includes('::delete')) {
      const args = callArguments(script, at);
      if (args === undefined || args.length < 2) continue;
      const recursive = head.includes('deletedirectory')
        ? /deleteallcontents/i.test(args[1]!)
        : /^(?:\$true|1|)$/i.test(args[1]!.trim());
      const target = recursive ? expressionPath(args[0]!) : undefined;
      if (target !== undefined)
        out.push({
          target,
          how: head.includes('deletedirectory') ? 'DeleteDirectory' : '[IO.Directory]::Delete',
        });
      continue;
    }
    // `(Get-Item p).Delete($true)`, `[IO.DirectoryInfo]::new(p).Delete($true)`: the object, then the call.
    const getItem = head.startsWith('(');
    const args = getItem ? [script.slice(at).split(/\)/, 1)[0]!.trim()] : callArguments(script, at);
    if (args === undefined || args.length === 0) continue;
    const rest = script.slice(at);
    const close = getItem ? rest.indexOf(')') : closingParen(rest);
    if (close < 0) continue;
    const after = rest.slice(close + 1);
    if (!/^\s*\)?\s*\.Delete\(\s*(?:\$true|1|)\s*\)/i.test(after)) continue;
    const item = getItem ? args[0]!.replace(/^-(?:LiteralPath|Path)\s+/i, '').split(/\s+-/, 1)[0]! : args[0]!;
    const target = expressionPath(item);
    if (target !== undefined) out.push({ target, how: 'DirectoryInfo.Delete($true)' });
  }
  return out;
}

/**
 * One pass over an argument list starting at 0: the index of the `)` that closes it and its
 * top-level arguments, or undefined when it does not close (or closes with `]`/`}`).
 */
function scanCall(text: string): { close: number; args: string[] } | undefined {
  const args: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote !== undefined) {
      if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') {
      if (depth > 0) depth--;
      else if (ch !== ')') return undefined;
      else {
        args.push(text.slice(from, i).trim());
        return { close: i, args };
      }
    } else if (ch === ',' && depth === 0) {
      args.push(text.slice(from, i).trim());
      from = i + 1;
    }
  }
  return undefined;
}

/** Index of the `)` that closes the argument list starting at 0, or -1. */
function closingParen(text: string): number {
  return scanCall(text)?.close ?? -1;
}

/** The top-level arguments of a call whose `(` ends just before `start`. */
function callArguments(script: string, start: number): string[] | undefined {
  return scanCall(script.slice(start, start + 4096))?.args;
}

/** Folders `[Environment]::GetFolderPath(…)` names, as the variables the path rules read. */
const SPECIAL_FOLDERS: Record<string, string> = {
  userprofile: '$env:USERPROFILE',
  windows: '$env:SystemRoot',
  system: '$env:SystemRoot\\System32',
  programfiles: '$env:ProgramFiles',
  programfilesx86: '$env:ProgramFiles(x86)',
  commonapplicationdata: '$env:ProgramData',
};

/**
 * The path a PowerShell expression names, when it can be told without running anything: a literal,
 * `$env:X`, `${env:X}`, `$HOME`, `$PWD`, `[Environment]::GetFolderPath('UserProfile')`,
 * `[Environment]::GetEnvironmentVariable('X')`, and those joined with `+`. Undefined otherwise.
 */
export function expressionPath(expression: string): string | undefined {
  const parts = expression
    .trim()
    .replace(/^\((.*)\)$/s, '$1')
    .split(/\s*\+\s*/);
  let path = '';
  for (const raw of parts) {
    const part = raw.trim();
    let value: string | undefined;
    const literal = /^(['"])(.*)\1$/s.exec(part);
    if (literal) value = literal[2]!;
    else if (/^\$env:[A-Za-z_][\w()]*$/i.test(part)) value = part;
    else if (/^\$\{env:[^}]+\}$/i.test(part)) value = `$env:${part.slice(6, -1)}`;
    else if (/^\$HOME$/i.test(part)) value = '$HOME';
    // A bare path, as a command argument is written: `(Get-Item C:\Users\agent)`.
    else if (/^(?:[A-Za-z]:|[\\/.~])[^\s'"$(),]*$/.test(part)) value = part;
    else if (/^(?:\$PWD|\(?(?:Get-Location|pwd|gl)\)?)$/i.test(part)) value = '.';
    else {
      const folder =
        /^\[(?:System\.)?Environment\]::GetFolderPath\(\s*(?:['"](\w+)['"]|\[(?:System\.)?Environment\+SpecialFolder\]::(\w+))\s*\)$/i.exec(
          part,
        );
      const variable =
        /^\[(?:System\.)?Environment\]::GetEnvironmentVariable\(\s*['"]([A-Za-z_][\w()]*)['"]\s*\)$/i.exec(
          part,
        );
      if (folder) value = SPECIAL_FOLDERS[(folder[1] ?? folder[2]!).toLowerCase()];
      else if (variable) value = `$env:${variable[1]}`;
    }
    if (value === undefined) return undefined;
    path += value;
  }
  // `${env:X}` inside a double-quoted string, as the path rules spell it.
  path = path.replace(/\$\{env:([^}]+)\}/gi, '$$env:$1');
  return path === '' ? undefined : path;
}

/**
 * The PowerShell forms of `vssadmin delete shadows`: instances of Win32_ShadowCopy, however they
 * are fetched (`Get-WmiObject`, `gwmi`, `Get-CimInstance`, `gcim`, `-Query "SELECT * FROM …"`,
 * `[wmiclass]`), deleted by `.Delete()`, `Remove-CimInstance`/`rcim` or `Remove-WmiObject`/`rwmi`.
 * Read through backtick escapes and literals joined with `+` (`'Win32_Shadow'+'Copy'`). A listing
 * (`Get-CimInstance Win32_ShadowCopy | Select-Object ID`) passes.
 */
function deletesShadowCopies(script: string): boolean {
  const text = script.replace(/`/g, '');
  return (
    /win32_shadowcopy/i.test(text.replace(/['"+\s\\]/g, '')) &&
    /\.Delete\s*\(|Remove-(?:Cim|Wmi)(?:Instance|Object)|\b(?:rcim|rwmi)\b/i.test(text)
  );
}

function judgeStatement(statement: PsStatement, state: State): void {
  const [first, ...rest] = statement.words;
  for (const target of statement.writes) judgePath(target, state, true);
  if (first === undefined) return;
  for (const word of statement.words) judgePathWord(word, state);
  if (statement.invoked) {
    if (!first.literal && first.expression !== 'block') {
      const script = scriptBlockText(first.raw);
      if (typeof script === 'string') {
        readPowerShellScript(script, nestedState(state));
        return;
      }
      const fetched = FETCH.test(first.raw);
      opaque(
        state,
        `${fetched ? 'code fetched from the network' : 'a command built at run time'} is invoked with & or .`,
      );
      return;
    }
    if (first.expression === 'block') return;
  } else if (!first.bare || first.expression !== undefined || /^[$\d@(['"]/.test(first.raw)) {
    // An expression statement: `'text'`, `$x.Method()`, `(1+1)`. Nested commands come on their own.
    judgeExpressionCalls(statement, state);
    return;
  }
  const name = state.aliases.get(first.text.toLowerCase()) ?? first.text;
  if (KEYWORDS.has(name.toLowerCase())) return;
  const cmdlet = name.includes('.') || /^[A-Za-z]:|^\.?\\/.test(name) ? undefined : cmdletName(name);
  if (cmdlet === undefined) {
    state.read.native([name, ...rest.map((word) => word.text)], state);
    return;
  }
  // `rd /s /q C:\` in PowerShell fails (Remove-Item takes no /s); judged as the cmd line it resembles.
  if (
    cmdlet === 'Remove-Item' &&
    /^(?:rd|rmdir|del|erase)$/i.test(name) &&
    rest.some((w) => /^\/[a-z]$/i.test(w.text))
  ) {
    state.read.cmdLine([name, ...rest.map((word) => word.text)].map(requote('"')).join(' '), state);
    return;
  }
  const bound = bindCmdlet(cmdlet, rest);
  // PowerShell 7 has no `curl` or `wget` alias: with the native tool's own options (`curl -X DELETE`),
  // which Invoke-WebRequest cannot bind, the native program runs.
  if (
    cmdlet === 'Invoke-WebRequest' &&
    /^(?:curl|wget)$/i.test(name) &&
    bound.rest.some((word) => word.startsWith('-'))
  ) {
    state.read.native([name, ...rest.map((word) => word.text)], state);
    return;
  }
  state.commands.push(bound.argv);
  switch (cmdlet) {
    case 'Invoke-Expression':
      judgeInvokeExpression(bound.named.get('Command'), rest, statement, state);
      return;
    case 'Start-Process': {
      const file = bound.named.get('FilePath')?.[0];
      if (file === undefined) return;
      const argumentList = bound.named.get('ArgumentList') ?? [];
      state.read.native(
        [file, ...argumentList.flatMap((value) => value.split(/\s+/)).filter((w) => w !== '')],
        state,
      );
      return;
    }
    case 'Invoke-Command':
      return;
    case 'ForEach-Object':
      judgeForEachRemove(rest, statement, state);
      return;
    case 'Set-Alias': {
      const alias = bound.named.get('Name')?.[0];
      const target = bound.named.get('Value')?.[0];
      if (alias !== undefined && target !== undefined) state.aliases.set(alias.toLowerCase(), target);
      return;
    }
    case 'Remove-Item':
      judgeRemoveItem(bound.named, statement, state);
      return;
    case 'Invoke-WebRequest':
    case 'Invoke-RestMethod':
      rememberWebRequest(cmdlet, bound.named, statement, state);
      return;
    default:
      return;
  }
}

/** Cmdlets whose output is a file's content when they head a pipeline: `Get-Content .env | irm …`. */
const FILE_READERS = new Set(['Get-Content']);

/**
 * `Invoke-RestMethod -Uri u -Method Post -InFile .env`, `Get-Content .env | Invoke-RestMethod u
 * -Method Post`: what the request sends and where, for the same egress rules as curl's.
 */
function rememberWebRequest(
  cmdlet: string,
  named: ReadonlyMap<string, string[]>,
  statement: PsStatement,
  state: State,
): void {
  const url = named.get('Uri')?.[0];
  if (url === undefined || state.requests.length >= 32) return;
  const body = named.get('Body')?.[0];
  let file = named.get('InFile')?.[0];
  const source = statement.pipedFrom;
  const [head, ...args] = source?.words ?? [];
  if (file === undefined && head?.bare && FILE_READERS.has(cmdletName(head.text) ?? '')) {
    file = args.find((word) => !(word.bare && /^-/.test(word.text)))?.text;
  }
  state.requests.push({
    cmdlet,
    url,
    method: (
      named.get('Method')?.[0] ?? (file !== undefined || body !== undefined ? 'POST' : 'GET')
    ).toUpperCase(),
    ...(file !== undefined ? { file } : {}),
    ...(body !== undefined ? { body } : {}),
  });
}

/**
 * The code `[scriptblock]::Create(…)` or `.InvokeScript(…)` in an expression runs: the literal
 * text, null when it is built at run time, undefined when the expression makes no such call.
 */
function scriptBlockText(raw: string): string | null | undefined {
  const call = /\[(?:System\.Management\.Automation\.)?scriptblock\]::Create\(|\.InvokeScript\(/i.exec(raw);
  if (!call) return undefined;
  const rest = raw.slice(call.index + call[0].length);
  const argument = /^\s*(['"])([^'"]*)\1\s*\)/.exec(rest);
  if (argument && !(argument[1] === '"' && argument[2]!.includes('$'))) return argument[2]!;
  return decodedLiteral(rest) ?? null;
}

/** Runs text as code, like Invoke-Expression: read when literal, refused when not. */
function judgeExpressionCalls(statement: PsStatement, state: State): void {
  for (const word of statement.words) {
    const script = scriptBlockText(word.raw);
    if (script === undefined) continue;
    if (script !== null) readPowerShellScript(script, nestedState(state));
    else
      opaque(
        state,
        `${FETCH.test(word.raw) ? 'code fetched from the network' : 'code built at run time'} is turned into a script block`,
      );
  }
}

const TEXT_ENCODINGS: Record<string, BufferEncoding> = lookupTable({
  unicode: 'utf16le',
  utf8: 'utf8',
  ascii: 'latin1',
  default: 'utf8',
});

/**
 * `[Text.Encoding]::Unicode.GetString([Convert]::FromBase64String('…'))`: literal data decoded
 * in place is as readable as the literal itself.
 */
export function decodedLiteral(raw: string): string | undefined {
  const match =
    /\[(?:System\.)?Text\.Encoding\]::(Unicode|UTF8|ASCII|Default)\.GetString\(\s*\[(?:System\.)?Convert\]::FromBase64String\(\s*(['"])([A-Za-z0-9+/=\s]{1,65536})\2\s*\)\s*\)/i.exec(
      raw,
    );
  if (!match) return undefined;
  const text = Buffer.from(match[3]!.replace(/\s+/g, ''), 'base64').toString(
    TEXT_ENCODINGS[match[1]!.toLowerCase()] ?? 'utf8',
  );
  return text.includes('\uFFFD') ? undefined : text;
}

function judgeInvokeExpression(
  command: string[] | undefined,
  words: readonly PsWord[],
  statement: PsStatement,
  state: State,
): void {
  const argument = words.find((word) => !(word.bare && /^-/.test(word.text)));
  if (command !== undefined && argument !== undefined) {
    const decoded = argument.literal ? argument.text : decodedLiteral(argument.raw);
    if (decoded !== undefined) readPowerShellScript(decoded, nestedState(state));
    else {
      const fetched = FETCH.test(argument.raw);
      opaque(
        state,
        `Invoke-Expression runs ${fetched ? 'code fetched from the network' : 'code built at run time'}`,
      );
    }
    return;
  }
  const source = statement.pipedFrom;
  const printed = source ? printedLiteral(source) : undefined;
  if (printed !== undefined) readPowerShellScript(printed, nestedState(state));
  else {
    const fetched = source?.words.some((word) => FETCH.test(word.raw));
    opaque(
      state,
      `Invoke-Expression runs ${fetched ? 'code fetched from the network' : 'what it reads from the pipeline'}`,
    );
  }
}

/** What a statement writes to the pipeline when that is a literal: `'text'`, `echo 'text'`. */
function printedLiteral(statement: PsStatement): string | undefined {
  const [first, ...rest] = statement.words;
  if (first === undefined) return undefined;
  if (!first.bare && first.literal && rest.length === 0) return first.text;
  if (
    first.bare &&
    cmdletName(first.text) === 'Write-Output' &&
    rest.length > 0 &&
    rest.every((w) => w.literal)
  ) {
    return rest.map((word) => word.text).join(' ');
  }
  return undefined;
}

/**
 * A `-Filter` or `-Include` narrows a listing unless it is made only of wildcards (`*`, `*.*`):
 * `-Filter *.tmp` narrows, `-Include *` does not. `-Exclude` never narrows: everything but the
 * excluded names still goes (`Get-ChildItem C:\ -Exclude Windows`).
 */
function narrows(named: ReadonlyMap<string, string[]>): boolean {
  const everything = (pattern: string) => pattern.includes('*') && /^[*?.]+$/.test(pattern.trim());
  const filters = [...(named.get('Filter') ?? []), ...(named.get('Include') ?? [])];
  return filters.length > 0 && !filters.some(everything);
}

/** Pipeline stages that pass every item on, reordered or reshaped: `Sort-Object`, `Select-Object FullName`. */
function passesEverything(statement: PsStatement): boolean {
  const [first, ...rest] = statement.words;
  if (first === undefined || !first.bare) return false;
  const cmdlet = cmdletName(first.text);
  if (cmdlet === 'Sort-Object') return !rest.some((w) => w.bare && /^-(?:top|bottom|u)/i.test(w.text));
  if (cmdlet === 'Select-Object') {
    return !rest.some((w) => w.bare && /^-(?:f|l|sk|ind|u)/i.test(w.text));
  }
  return false;
}

/**
 * What a `Get-ChildItem` (`gci`, `ls`, `dir`) or `Get-Item` (`gi`) earlier in the pipeline writes
 * to it in full: every child of a root, or the root itself. The producer's parameters are bound as
 * PowerShell binds them, so switches and common parameters in any order and spelling
 * (`-Force`, `-fo`, `-ErrorAction SilentlyContinue`, `-ea 0`, `-Hidden`, `-Directory`, `-Depth 1`)
 * leave the listing whole; only a filter that narrows it does not. Stages that pass every item on
 * (`Sort-Object`, `Select-Object FullName`) are looked through.
 */
function listedRoot(
  source: PsStatement | undefined,
): { root: string; recurse: boolean; producer: string } | undefined {
  let producer = source;
  for (let hops = 0; producer !== undefined && hops < 8 && passesEverything(producer); hops++) {
    producer = producer.pipedFrom;
  }
  const [first, ...rest] = producer?.words ?? [];
  if (first === undefined || !first.bare) return undefined;
  const cmdlet = cmdletName(first.text);
  if (cmdlet !== 'Get-ChildItem' && cmdlet !== 'Get-Item') return undefined;
  const listing = bindCmdlet(cmdlet, rest).named;
  if (narrows(listing)) return undefined;
  const root = listing.get('Path')?.[0] ?? listing.get('LiteralPath')?.[0] ?? '.';
  return { root, recurse: listing.has('Recurse'), producer: cmdlet };
}

/**
 * `Get-ChildItem C:\Users | ForEach-Object { Remove-Item $_.FullName -Recurse }`, `{ $_.Delete($true) }`:
 * every child of a root. `.Delete()` without `$true` removes files and empty folders, so it wipes
 * the tree only over a recursive listing.
 */
function judgeForEachRemove(words: readonly PsWord[], statement: PsStatement, state: State): void {
  const listed = listedRoot(statement.pipedFrom);
  if (listed === undefined) return;
  for (const block of words) {
    for (const inner of block.inner ?? []) {
      const [first, ...rest] = inner.words;
      const call = first && /^\$(?:_|PSItem)\.Delete\(\s*(\$true|1)?\s*\)/i.exec(first.raw);
      if (call && (call[1] !== undefined || listed.recurse)) {
        judgeDeleteTarget(listed.root, state, `${listed.producer} | ForEach-Object { $_.Delete() }`);
        continue;
      }
      if (first === undefined || cmdletName(first.text) !== 'Remove-Item') continue;
      const named = bindCmdlet('Remove-Item', rest).named;
      const targets = [...(named.get('Path') ?? []), ...(named.get('LiteralPath') ?? [])];
      // No target at all: a POSIX reading may have expanded `$_` away.
      const eachItem = targets.length === 0 || targets.some((target) => /^\$(?:_|PSItem)\b/i.test(target));
      if (eachItem && !named.has('WhatIf') && (named.has('Recurse') || listed.recurse)) {
        judgeDeleteTarget(listed.root, state, `${listed.producer} | ForEach-Object { Remove-Item }`);
      }
    }
  }
}

function judgeRemoveItem(named: Map<string, string[]>, statement: PsStatement, state: State): void {
  if (named.has('WhatIf')) return;
  const recurse = named.has('Recurse');
  const targets = [...(named.get('Path') ?? []), ...(named.get('LiteralPath') ?? [])];
  const narrowed = narrows(named);
  if (recurse && !narrowed)
    for (const target of targets) judgeDeleteTarget(target, state, 'Remove-Item -Recurse');
  // `Get-ChildItem C:\ | Remove-Item -Recurse`: every child of the root.
  if (targets.length > 0) return;
  const listed = listedRoot(statement.pipedFrom);
  if (listed === undefined || (!recurse && !listed.recurse)) return;
  judgeDeleteTarget(listed.root, state, `${listed.producer} | Remove-Item`);
}
