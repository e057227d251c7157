import type { ShNode } from 'mvdan-sh';
import { judgeCommand } from './command.ts';
import { expandWord, valueOfFields, wordString } from './expansion.ts';
import { judgePathsInText, judgeRedirect } from './named-paths.ts';
import {
  assign,
  child,
  destructive,
  type Field,
  MAX_FIELDS,
  MAX_ITEMS,
  newScope,
  type Stream,
  type Value,
  type Walk,
} from './state.ts';
import {
  list,
  litValue,
  nodeType,
  PIPE_OPS,
  REDIR_DUP_IN,
  REDIR_HEREDOC,
  REDIR_HERESTRING,
  REDIR_IN,
  REDIR_OUT,
  TEST_REMATCH,
} from './syntax.ts';
import { remember, writtenFile } from './written-files.ts';

/**
 * The walk of the parsed syntax tree: statements, pipelines, redirections, compound commands,
 * assignments and function definitions.
 */

export function runStmts(stmts: ShNode[], walk: Walk, stdin?: Stream): Stream | undefined {
  let output: Stream | undefined;
  let literal = '';
  let allLiteral = true;
  for (const stmt of stmts) {
    output = runStmt(stmt, walk, stdin);
    if (output?.literal !== undefined) literal += output.literal;
    else allLiteral = false;
  }
  return allLiteral && stmts.length > 0 ? { literal } : output;
}

export function runSubstitution(stmts: ShNode[], walk: Walk): Stream | undefined {
  // A substitution runs in a subshell: its assignments do not leak out.
  const inner = child(walk, newScope(walk.scope.positional, walk.scope));
  return inner ? runStmts(stmts, inner) : undefined;
}

interface Redirects {
  stdin?: Stream;
  /** Files the command's standard output goes to. */
  writes?: { target: string; append: boolean }[];
}

function applyRedirects(stmt: ShNode, walk: Walk): Redirects {
  const result = applyRedirectsToStdin(stmt, walk);
  // `exec 3<<<'…'` or `exec 3< <(curl …)` opens descriptor 3; `bash <&3` reads it.
  for (const redir of list(stmt['Redirs'])) {
    const n = redir['N'] ? litValue(redir['N']) : '';
    const op = Number(redir['Op']);
    if (/^[3-9]$/.test(n) && (REDIR_HEREDOC.has(op) || op === REDIR_HERESTRING || op === REDIR_IN)) {
      const single = applyRedirectsToStdin({ Redirs: [redir] } as unknown as ShNode, walk).stdin;
      const proc =
        op === REDIR_IN ? expandWord(redir['Word'] as ShNode | undefined, walk)[0]?.proc : undefined;
      const opened = proc ?? single;
      if (opened !== undefined) {
        walk.ctx.fds ??= new Map();
        walk.ctx.fds.set(n, opened);
      }
      if (result.stdin === single) delete result.stdin;
    } else if (op === REDIR_DUP_IN) {
      const from = wordString(redir['Word'] as ShNode | undefined, walk).text;
      const opened = walk.ctx.fds?.get(from);
      if (opened !== undefined) result.stdin = opened;
    }
  }
  return result;
}

function applyRedirectsToStdin(stmt: ShNode, walk: Walk): Redirects {
  const result: Redirects = {};
  for (const redir of list(stmt['Redirs'])) {
    const op = Number(redir['Op']);
    if (REDIR_HEREDOC.has(op)) {
      const body = (redir['Hdoc'] as ShNode | undefined) ?? (redir['Word'] as ShNode | undefined);
      const value = wordString(body, walk);
      result.stdin = value.known
        ? { literal: value.text }
        : { unknown: value.opaque ?? 'a here-document with unknown expansions' };
      continue;
    }
    if (op === REDIR_HERESTRING) {
      const value = wordString(redir['Word'] as ShNode | undefined, walk);
      result.stdin = value.known
        ? { literal: `${value.text}\n` }
        : {
            unknown: value.opaque ?? 'a here-string with unknown expansions',
            ...(value.reads ? { files: value.reads } : {}),
          };
      continue;
    }
    const targetValue = wordString(redir['Word'] as ShNode | undefined, walk);
    const target = targetValue.text;
    if (/^\/dev\/(?:tcp|udp)\//.test(target)) judgeRedirect('out', target, walk);
    else if (REDIR_OUT.has(op) && !/^\d+$|^-$/.test(target)) {
      judgeRedirect('out', target, walk);
      // `>`, `>>`, `>|`, `&>`, `&>>`: standard output goes to the file (not `2>`, not `>&`).
      if (op !== 59 && targetValue.known && (!redir['N'] || litValue(redir['N']) === '1')) {
        result.writes ??= [];
        result.writes.push({ target, append: op === 55 || op === 65 });
      }
    } else if (op === REDIR_IN) {
      judgeRedirect('in', target, walk);
      result.stdin = (targetValue.known
        ? writtenFile({ text: target, dynamic: false }, walk)
        : undefined) ?? { files: [target] };
    }
  }
  return result;
}

export function runStmt(stmt: ShNode, walk: Walk, stdin?: Stream): Stream | undefined {
  const redirects = applyRedirects(stmt, walk);
  // `$(<file)`: a statement that is only an input redirection gives the file's contents.
  if (!stmt['Cmd'] && redirects.stdin !== undefined && redirects.writes === undefined) return redirects.stdin;
  const output = runCommand(stmt['Cmd'] as ShNode | undefined, walk, redirects.stdin ?? stdin);
  if (redirects.writes === undefined) return output;
  for (const write of redirects.writes) remember(walk, write.target, output, write.append);
  return undefined;
}

function runCommand(cmd: ShNode | undefined, walk: Walk, stdin?: Stream): Stream | undefined {
  if (!cmd) return undefined;
  switch (nodeType(cmd)) {
    case 'CallExpr': {
      const assigns = list(cmd['Assigns']);
      const args = list(cmd['Args']);
      const fields: Field[] = [];
      for (const arg of args) fields.push(...expandWord(arg, walk));
      // `X=v cmd` gives X to the command, after its own words were expanded.
      for (const a of assigns) {
        const value = assignedValue(a, walk);
        judgePathsInText(value.text, walk);
        assign(walk, litValue(a['Name']), value);
      }
      if (args.length === 0) return undefined;
      return judgeCommand(fields, walk, stdin);
    }
    case 'BinaryCmd': {
      const left = cmd['X'] as ShNode;
      const right = cmd['Y'] as ShNode;
      if (PIPE_OPS.has(Number(cmd['Op']))) return runStmt(right, walk, runStmt(left, walk, stdin));
      runStmt(left, walk, stdin);
      return runStmt(right, walk);
    }
    case 'Subshell': {
      const inner = child(walk, newScope(walk.scope.positional, walk.scope));
      return inner ? runStmts(list(cmd['Stmts']), inner, stdin) : undefined;
    }
    case 'Block':
      return runStmts(list(cmd['Stmts']), walk, stdin);
    case 'IfClause': {
      let clause: ShNode | undefined = cmd;
      while (clause) {
        runStmts(list(clause['Cond']), walk);
        runStmts(list(clause['Then']), walk);
        clause = clause['Else'] as ShNode | undefined;
      }
      return undefined;
    }
    case 'WhileClause':
      // `… | while read x; do …; done`: the condition reads what is piped in.
      runStmts(list(cmd['Cond']), walk, stdin);
      runStmts(list(cmd['Do']), walk);
      return undefined;
    case 'ForClause':
      runFor(cmd, walk);
      return undefined;
    case 'CaseClause':
      for (const item of list(cmd['Items'])) runStmts(list(item['Stmts']), walk);
      return undefined;
    case 'FuncDecl': {
      const name = litValue(cmd['Name']);
      judgeForkBomb(name, cmd['Body'] as ShNode | undefined, walk);
      if (name !== '') {
        walk.scope.functions ??= new Map();
        walk.scope.functions.set(name, cmd['Body'] as ShNode);
      }
      return undefined;
    }
    case 'TimeClause':
      return cmd['Stmt'] ? runStmt(cmd['Stmt'] as ShNode, walk, stdin) : undefined;
    case 'CoprocClause': {
      // The coprocess's output is read through ${COPROC[0]}: `bash <&"${COPROC[0]}"`.
      const output = cmd['Stmt'] ? runStmt(cmd['Stmt'] as ShNode, walk, stdin) : undefined;
      const name = cmd['Name'] ? litValue(cmd['Name']) || 'COPROC' : 'COPROC';
      walk.ctx.fds ??= new Map();
      walk.ctx.fds.set('63', output ?? { unknown: 'the output of a coprocess' });
      assign(walk, name, { text: '63 62', known: true, array: true, items: ['63', '62'] });
      return undefined;
    }
    case 'DeclClause': {
      // `declare -n t=target`: t is a name reference; reading it reads target.
      let nameref = false;
      for (const a of list(cmd['Args'])) {
        const name = litValue(a['Name']);
        if (a['Naked']) {
          const word = a['Value'] ? wordString(a['Value'] as ShNode, walk).text : name;
          if (/^-[a-zA-Z]*n/.test(word)) nameref = true;
          continue;
        }
        const value = wordString(a['Value'] as ShNode | undefined, walk);
        judgePathsInText(value.text, walk);
        if (name !== '') assign(walk, name, nameref && value.known ? { ...value, ref: value.text } : value);
      }
      return undefined;
    }
    case 'TestClause': {
      // `[[ word =~ regex ]]` sets BASH_REMATCH to the match and its groups.
      const test = cmd['X'] as ShNode | undefined;
      if (nodeType(test) === 'BinaryTest' && Number(test?.['Op']) === TEST_REMATCH) {
        const left = wordString(test!['X'] as ShNode, walk);
        const right = test!['Y'] as ShNode | undefined;
        const pattern = right
          ? list(right['Parts'])
              .map((q) => (nodeType(q) === 'Lit' ? litValue(q) : '\0'))
              .join('')
          : '';
        if (left.known && !pattern.includes('\0') && pattern.length <= 256) {
          let match: RegExpExecArray | null = null;
          try {
            match = new RegExp(pattern).exec(left.text);
          } catch {
            match = null;
          }
          const items = match ? [...match].map((g) => g ?? '') : [];
          assign(walk, 'BASH_REMATCH', { text: items.join(' '), known: true, array: true, items });
        }
      }
      return undefined;
    }
    case 'LetClause':
    case 'ArithmCmd':
      return undefined;
    default:
      return undefined;
  }
}

/** The value an assignment gives: a word, or an array `(a b c)` kept as its words. */
function assignedValue(a: ShNode, walk: Walk): Value {
  const array = a['Array'] as ShNode | undefined;
  if (!array) return wordString(a['Value'] as ShNode | undefined, walk);
  let fields: Field[] = [];
  const placed: Field[] = [];
  for (const elem of list(array['Elems'])) {
    const words = expandWord(elem['Value'] as ShNode | undefined, walk);
    // `([2]=x [0]=rm)`: an explicit index places the element.
    const index = elem['Index'] ? Number(wordString(elem['Index'] as ShNode, walk).text) : Number.NaN;
    if (Number.isInteger(index) && index >= 0 && index < MAX_FIELDS && words.length === 1)
      placed[index] = words[0]!;
    else fields.push(...words);
  }
  if (placed.length > 0) fields = [...placed.filter((f) => f !== undefined), ...fields];
  const value: Value = { ...valueOfFields(fields), array: true };
  if (fields.every((f) => !f.dynamic)) value.items = fields.map((f) => f.text);
  return value;
}

function runFor(cmd: ShNode, walk: Walk): void {
  const loop = cmd['Loop'] as ShNode | undefined;
  const body = list(cmd['Do']);
  if (nodeType(loop) !== 'WordIter') {
    runStmts(body, walk);
    return;
  }
  const name = litValue(loop?.['Name']);
  const items: Field[] = [];
  for (const word of list(loop?.['Items'])) items.push(...expandWord(word, walk));
  if (items.length === 0) {
    assign(walk, name, { text: '', known: false });
    runStmts(body, walk);
    return;
  }
  for (const item of items.slice(0, MAX_ITEMS)) {
    assign(walk, name, { text: item.text, known: !item.dynamic });
    runStmts(body, walk);
  }
}

/** A function that calls itself in a pipeline or in the background multiplies without bound. */
function judgeForkBomb(name: string, body: ShNode | undefined, walk: Walk): void {
  if (name === '' || !body) return;
  let calls = 0;
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
      if (first && list(first['Parts']).map(litValue).join('') === name) calls++;
    }
  };
  visit(body);
  if (spawns && calls >= 1) destructive(walk, 'fork bomb', `function "${name.slice(0, 20)}"`);
}
