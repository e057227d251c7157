import { normalizePath } from '../paths.ts';
import { printfOutput } from './decode.ts';
import { judgeStdinScript, runScriptField, runWrittenScript } from './nested-code.ts';
import {
  assign,
  describeStream,
  type Field,
  ifsOf,
  joinFields,
  lookup,
  MAX_ITEMS,
  NEXT,
  opaque,
  type ProgramCall,
  type Stream,
  type Walk,
} from './state.ts';
import { remember, writtenFile } from './written-files.ts';

/**
 * The shell's own built-ins: they change the state the rest of the command line is judged in
 * (the working directory, variables, aliases, positional parameters) or run text as code.
 */

export function pushDirectory({ walk }: ProgramCall): typeof NEXT {
  walk.ctx.dirs ??= [];
  walk.ctx.dirs.unshift(walk.ctx.cwd.workspace);
  return NEXT;
}

export function popDirectory({ walk }: ProgramCall): undefined | typeof NEXT {
  if (!walk.ctx.dirs?.length) return NEXT;
  walk.ctx = { ...walk.ctx, cwd: { ...walk.ctx.paths, workspace: walk.ctx.dirs.shift()! } };
  return undefined;
}

/** `dirs -l +1`: the directory stack, the current directory first. */
export function listDirectories({ walk, texts }: ProgramCall): Stream {
  const stack = [walk.ctx.cwd.workspace, ...(walk.ctx.dirs ?? [])];
  const pick = texts.find((t) => /^[+-]\d+$/.test(t));
  if (pick === undefined) return { literal: `${stack.join(' ')}\n` };
  const n = Number(pick.slice(1));
  const entry = pick.startsWith('+') ? stack[n] : stack[stack.length - 1 - n];
  return entry === undefined ? { literal: '' } : { literal: `${entry}\n` };
}

/** `cd`, `pushd`: later relative paths resolve against the new directory. */
export function changeDirectory({ walk, args }: ProgramCall): undefined {
  const target = args.find((a) => !a.text.startsWith('-'));
  if (target === undefined || !target.dynamic) {
    // CDPATH: a bare relative name is looked for under its entries first (the first is taken).
    const cdpath = lookup(walk, 'CDPATH');
    const via =
      target !== undefined && cdpath?.known && cdpath.text !== '' && !/^[/.~]/.test(target.text)
        ? `${cdpath.text.split(':')[0] || '.'}/${target.text}`
        : target?.text;
    const workspace = via === undefined ? walk.ctx.paths.home : normalizePath(via, walk.ctx.cwd);
    walk.ctx = { ...walk.ctx, cwd: { ...walk.ctx.paths, workspace } };
  }
  return undefined;
}

export function evaluate({ walk, args }: ProgramCall): undefined {
  const script: Field = {
    text: joinFields(args),
    dynamic: args.some((a) => a.dynamic),
    ...(args.find((a) => a.opaque)?.opaque ? { opaque: args.find((a) => a.opaque)!.opaque! } : {}),
  };
  runScriptField(script, walk, 'eval');
  return undefined;
}

/** `hash -p /bin/rm ll`: `ll` now runs /bin/rm. */
export function hashPath({ walk, args }: ProgramCall): undefined | typeof NEXT {
  if (args[0]?.text !== '-p' || !args[1] || !args[2] || args[1].dynamic || args[2].dynamic) return NEXT;
  walk.scope.aliases ??= new Map();
  walk.scope.aliases.set(args[2].text, args[1].text);
  return undefined;
}

/** `trap 'cmd' EXIT ERR …`: the command runs when the shell gets there. */
export function trap({ walk, args }: ProgramCall): undefined {
  const body = args.find((a) => !a.text.startsWith('-'));
  if (body !== undefined && args.length > 1) runScriptField(body, walk, 'trap');
  return undefined;
}

/** `cp x.sh y.sh` of a file written earlier: the copy holds what the original does. */
export function copyWrittenFile({ walk, args, stdin }: ProgramCall): typeof NEXT {
  if (walk.ctx.written.size + (stdin ? 1 : 0) === 0) return NEXT;
  const operands = args.filter((a) => !a.text.startsWith('-'));
  if (operands.length === 2 && !operands.some((a) => a.dynamic)) {
    const from =
      operands[0]!.text === '/dev/stdin' || operands[0]!.text === '-'
        ? stdin
        : writtenFile(operands[0], walk);
    if (from !== undefined) remember(walk, operands[1]!.text, from);
  }
  return NEXT;
}

/** `set -- a b c` (or `set a b c`) gives $1, $2… and "$@" those words. */
export function setPositional({ walk, args }: ProgramCall): undefined {
  const dash = args.findIndex((a) => a.text === '--');
  const from = dash >= 0 ? dash + 1 : args[0] && !/^[-+]/.test(args[0].text) ? 0 : -1;
  if (from >= 0) {
    walk.scope.positional = [walk.scope.positional[0] ?? { text: 'sh', dynamic: false }, ...args.slice(from)];
    walk.scope.positionalSet = true;
  }
  return undefined;
}

export function defineAlias({ walk, args }: ProgramCall): undefined {
  for (const arg of args) {
    const eq = arg.text.indexOf('=');
    if (eq > 0 && !arg.dynamic) {
      walk.scope.aliases ??= new Map();
      walk.scope.aliases.set(arg.text.slice(0, eq), arg.text.slice(eq + 1));
    }
  }
  return undefined;
}

export function source({ name, walk, args, stdin }: ProgramCall): undefined {
  const file = args[0];
  const written = file?.proc ?? writtenFile(file, walk);
  if (written) runWrittenScript(written, file!.text || '<(…)', walk, name);
  else if (file?.opaque || (file?.dynamic && file.text === ''))
    opaque(walk, file.opaque ?? 'a sourced file whose path is unknown');
  if (stdin && (file?.text === '/dev/stdin' || file?.text === '-')) judgeStdinScript(stdin, walk, name);
  return undefined;
}

/** `printf -v x …`: x holds what printf would print. */
export function printfToVariable({ walk, args, texts }: ProgramCall): undefined | typeof NEXT {
  if (args[0]?.text !== '-v' || !args[1]) return NEXT;
  const out = args.slice(2).some((a) => a.dynamic) ? undefined : printfOutput(texts.slice(2));
  assign(
    walk,
    args[1].text,
    out === undefined ? { text: '', known: false, codeLike: true } : { text: out, known: true },
  );
  return undefined;
}

/** `read`, `mapfile`, `readarray`: variables hold what standard input gives, where it is known. */
export function readInput({ name, walk, args, stdin }: ProgramCall): undefined {
  if (name === 'read' && stdin?.found && !stdin.found.narrowed) {
    const target = args.find((a) => /^[A-Za-z_]\w*$/.test(a.text));
    const root = stdin.found.roots[0];
    if (target && root) assign(walk, target.text, { text: root.text, known: !root.dynamic });
    return undefined;
  }
  if (name === 'read' && stdin?.literal !== undefined && args.some((a) => /^-[a-zA-Z]*a/.test(a.text))) {
    // `IFS=, read -ra a <<< 'rm,-rf,/'`: the line split at IFS, as an array.
    const flag = args.findIndex((a) => /^-[a-zA-Z]*a$/.test(a.text));
    const target = flag >= 0 ? args[flag + 1] : undefined;
    if (target !== undefined && /^[A-Za-z_]\w*$/.test(target.text)) {
      const ifs = ifsOf(walk);
      const line = stdin.literal.split('\n')[0] ?? '';
      const items = line.split(new RegExp(`[${ifs.replace(/[\\\]^-]/g, '\\$&')}]+`)).filter((t) => t !== '');
      assign(walk, target.text, { text: items.join(' '), known: true, array: true, items });
    }
    return undefined;
  }
  if (name === 'read' && stdin?.literal !== undefined) {
    const names = args.filter((a) => /^[A-Za-z_]\w*$/.test(a.text) && !a.text.startsWith('-'));
    const line = (stdin.literal.split('\n')[0] ?? '').trim();
    const words = line.split(/[ \t]+/);
    for (const [k, n] of names.entries()) {
      const text = k === names.length - 1 ? words.slice(k).join(' ') : (words[k] ?? '');
      assign(walk, n.text, { text, known: true });
    }
    return undefined;
  }
  if ((name === 'mapfile' || name === 'readarray') && stdin?.literal !== undefined) {
    mapLines(args, stdin.literal, walk);
    return undefined;
  }
  for (const arg of args)
    if (/^[A-Za-z_]\w*$/.test(arg.text))
      assign(walk, arg.text, {
        text: '',
        known: false,
        ...(describeStream(stdin) ? { opaque: describeStream(stdin)! } : {}),
        // What was read from a file is that file's data: `… .env | while read h; do ping -p $h …`.
        ...(stdin?.files && stdin.files.length > 0 ? { reads: stdin.files } : {}),
      });
  return undefined;
}

/** `mapfile -t a <<< $'rm\n-rf\n/'`: one element a line (or a -d delimiter), as an array. */
function mapLines(args: Field[], literal: string, walk: Walk): void {
  const valued = new Set(['-d', '-n', '-O', '-s', '-u', '-C', '-c']);
  let delimiter = '\n';
  let target = 'MAPFILE';
  for (let i = 0; i < args.length; i++) {
    const text = args[i]!.text;
    if (text === '-d') delimiter = args[i + 1]?.text || '\0';
    if (valued.has(text)) i++;
    else if (!text.startsWith('-') && /^[A-Za-z_]\w*$/.test(text)) target = text;
  }
  const strip = args.some((a) => /^-[a-zA-Z]*t/.test(a.text));
  const parts = literal.split(delimiter);
  if (parts[parts.length - 1] === '') parts.pop();
  const items = parts.slice(0, MAX_ITEMS * 8).map((p) => (strip ? p : p + delimiter));
  assign(walk, target, { text: items.join(' '), known: true, array: true, items });
}

/** `export X=…`, `declare`, `typeset`, `local`, `readonly`: assignments. */
export function declare({ walk, args }: ProgramCall): undefined {
  for (const arg of args) {
    const m = /^([A-Za-z_]\w*)=(.*)$/s.exec(arg.text);
    if (m) assign(walk, m[1]!, { text: m[2]!, known: !arg.dynamic });
  }
  return undefined;
}
