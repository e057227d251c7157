import type { ShNode } from 'mvdan-sh';
import { readSimpleScript, type SimpleStatement, STRUCTURAL } from '../shell-simple.ts';
import { judgeCommand } from './command.ts';
import { expandSimpleWord, valueOfFields } from './expansion.ts';
import { walkSplit } from './linear-reader.ts';
import { judgePathsInText, judgeRedirect } from './named-paths.ts';
import { assign, child, destructive, type Field, PARSE_LIMIT, type Stream, type Walk } from './state.ts';
import { runStmts } from './statements.ts';
import { list, parser } from './syntax.ts';
import { remember, writtenFile } from './written-files.ts';

/**
 * One script: read by the linear reader when its words allow, else by mvdan/sh within the budgets.
 */

/** Characters handed to the parser in one analysis, nested scripts included. */
const PARSE_BUDGET = 256 * 1024;

/**
 * Backquotes in one script handed to the parser. Each pair is a nested parse and walk in the
 * parser's runtime, at about 0.1 ms: 15,000 of them (30 KB) held the event loop 1.7 s. Past this,
 * the linear reader judges the script, as past PARSE_LIMIT.
 */
const MAX_BACKQUOTES = 512;

/**
 * Quote characters in one script handed to the parser: a word of thousands of quoted pieces
 * (`'\''` repeated) costs its runtime ~25 µs a character, 0.76 s at 32 KiB. Past this, the linear
 * reader judges the script.
 */
const MAX_QUOTES = 2048;

function backquotes(script: string): number {
  let n = 0;
  for (let at = script.indexOf('`'); at >= 0 && n <= MAX_BACKQUOTES; at = script.indexOf('`', at + 1)) n++;
  return n;
}

function quotes(script: string): number {
  let n = 0;
  for (let i = 0; i < script.length && n <= MAX_QUOTES; i++) {
    const c = script.charCodeAt(i);
    if (c === 39 || c === 34) n++;
  }
  return n;
}

export function analyzeScript(script: string, walk: Walk): void {
  if (script.trim() === '') return;
  const inner = child(walk);
  if (inner) parseAndWalk(script, inner);
}

/**
 * Scripts made only of words, plain quotes and `|`/`&`/`;` lists have one reading under
 * any shell grammar, so the linear splitter gives the same commands as the parser at a
 * fraction of the cost. Anything with expansions, redirections, grouping, escapes or
 * comments goes to mvdan/sh (or the simple reader, which resolves the same way).
 */
const TRIVIAL_SCRIPT = /^[^$`\\(){}<>#\n\r!]*$/;

/**
 * Whether a command of the list starts (after its assignments) with a word the parser reads as
 * syntax or a declaration: `export ~/.ssh/id_rsa` declares a (bad) name and touches no file,
 * where the splitter would read a path.
 */
function commandOpensWithKeyword(script: string): boolean {
  for (const command of script.split(/[|&;]+/)) {
    const words = command.trim().split(/\s+/);
    const first = words.find((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
    if (first !== undefined && STRUCTURAL.has(first)) return true;
  }
  return false;
}

export function parseAndWalk(script: string, walk: Walk, fastPaths = true): void {
  if (
    fastPaths &&
    TRIVIAL_SCRIPT.test(script) &&
    !/"[^"]*'|'[^']*"/.test(script) &&
    !commandOpensWithKeyword(script)
  ) {
    walkSplit(script, walk);
    return;
  }
  if (
    script.length <= PARSE_LIMIT &&
    walk.budget.parsed + script.length <= PARSE_BUDGET &&
    backquotes(script) <= MAX_BACKQUOTES &&
    quotes(script) <= MAX_QUOTES
  ) {
    const simple = fastPaths ? readSimpleScript(script) : undefined;
    if (simple !== undefined) {
      walkSimple(simple, walk);
      return;
    }
    walk.budget.parsed += script.length;
    let file: ShNode | undefined;
    try {
      file = parser.Parse(script, '');
    } catch {
      file = undefined;
    }
    if (file) {
      runStmts(list(file['Stmts']), walk);
      return;
    }
  }
  walkSplit(script, walk, true);
  if (/:\s*\(\s*\)\s*\{\s*:\s*\|\s*:\s*&/.test(script)) destructive(walk, 'fork bomb', 'function ":"');
}

/** The parser walk's steps for a script the linear reader could take, in the same order. */
function walkSimple(statements: SimpleStatement[], walk: Walk): void {
  let output: Stream | undefined;
  for (const stmt of statements) {
    let stdin = stmt.piped ? output : undefined;
    let fromFile: Stream | undefined;
    let writes: { target: string; append: boolean }[] | undefined;
    for (const redirect of stmt.redirects) {
      const target =
        expandSimpleWord(
          { text: redirect.target, dynamic: false, parts: [{ lit: redirect.target }] },
          walk,
        )[0]?.text ?? '';
      judgeRedirect(redirect.kind, target, walk);
      // As in the parser walk: a /dev/tcp redirection is judged as a connection, not read as a file.
      if (redirect.kind === 'in' && !/^\/dev\/(?:tcp|udp)\//.test(target)) {
        fromFile = (/[$`]/.test(redirect.target)
          ? undefined
          : writtenFile({ text: target, dynamic: false }, walk)) ?? {
          files: [target],
        };
        stdin = fromFile;
      }
      if (redirect.stdout && !/^\/dev\/(?:tcp|udp)\//.test(target) && !/[$`]/.test(redirect.target)) {
        writes ??= [];
        writes.push({ target, append: redirect.append === true });
      }
    }
    const fields: Field[] = [];
    for (const word of stmt.words) fields.push(...expandSimpleWord(word, walk));
    for (const a of stmt.assigns) {
      const value = valueOfFields(expandSimpleWord(a.value, walk, false));
      judgePathsInText(value.text, walk);
      assign(walk, a.name, value);
    }
    // As in the parser walk, a statement that is only an input redirection gives the file.
    output =
      stmt.words.length > 0 ? judgeCommand(fields, walk, stdin) : writes === undefined ? fromFile : undefined;
    if (writes !== undefined) {
      for (const write of writes) remember(walk, write.target, output, write.append);
      output = undefined;
    }
  }
}
