import { PROGRAMS } from '../../registry/registry.ts';
import { judgeContainerRun, judgeCtrRun } from './containers.ts';
import { interpretEscapes } from './decode.ts';
import { wipeTarget } from './destruction.ts';
import { judgeStdinScript, runScriptField } from './nested-code.ts';
import {
  baseName,
  child,
  describeTarget,
  destructive,
  type Field,
  joinFields,
  MAX_ITEMS,
  push,
  type Stream,
  type Walk,
} from './state.ts';
import { writtenFile } from './written-files.ts';

/**
 * Programs that run other commands: xargs, parallel, find -exec's neighbours, ssh, containers,
 * at, tmux, screen, entr, ansible, salt, pdsh, `aws ssm send-command`, git's command settings.
 */

/** Shells, as the registry lists them: `xargs sh -c` runs its items as a script. */
const SHELLS: ReadonlySet<string> = new Set(PROGRAMS.withRole('shell'));

export function judgeXargs(args: Field[], walk: Walk, stdin?: Stream): Stream | undefined {
  const valued = new Set([
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
    '--max-procs',
    '--arg-file',
    '--replace',
    '--max-lines',
    '--eof',
  ]);
  let i = 0;
  let replace: string | undefined;
  let delimiter: string | undefined;
  while (i < args.length && args[i]!.text.startsWith('-')) {
    const text = args[i]!.text;
    if (text === '-I' || text === '--replace') replace = args[i + 1]?.text;
    else if (text.startsWith('-I') && text.length > 2) replace = text.slice(2);
    else if (text === '-i' || text === '--replace=') replace = '{}';
    if (text === '-0' || text === '--null') delimiter = '\0';
    if (text === '-d') delimiter = interpretEscapes(args[i + 1]?.text ?? '\n');
    i += valued.has(text) ? 2 : 1;
    if (text === '--') break;
  }
  const command = args.slice(i);
  const argv = command.length > 0 ? command : [{ text: 'echo', dynamic: false }];
  // `xargs -a list rm -rf`: the items come from a file (written earlier, or a `<(…)`).
  const argFile = args.slice(0, i).findIndex((a) => a.text === '-a' || a.text === '--arg-file');
  if (argFile >= 0 && args[argFile + 1])
    stdin = args[argFile + 1]!.proc ?? writtenFile(args[argFile + 1], walk) ?? stdin;
  let items: Field[] = [];
  if (stdin?.literal !== undefined) {
    const parts = delimiter === undefined ? stdin.literal.split(/\s+/) : stdin.literal.split(delimiter);
    items = parts
      .filter((p) => p !== '')
      .slice(0, MAX_ITEMS)
      .map((text) => ({ text, dynamic: false, via: 'xargs input' }));
  } else if (stdin?.found && !stdin.found.narrowed) {
    items = stdin.found.roots.map((root) => ({ ...root, via: 'xargs input from find' }));
  }
  const inner = child(walk);
  if (!inner) return undefined;
  // `curl … | xargs -0 bash -c`: the first item becomes the script `bash -c` runs.
  const c = argv.findIndex((a) => /^-[a-zA-Z]*c$/.test(a.text));
  if (
    items.length === 0 &&
    SHELLS.has(baseName(argv[0]!.text)) &&
    c === argv.length - 1 &&
    stdin !== undefined
  ) {
    judgeStdinScript(stdin, walk, `xargs ${argv.map((a) => a.text).join(' ')}`);
    return { unknown: 'the output of xargs' };
  }
  if (items.length === 0) {
    walk.run.command(argv, inner);
  } else if (replace !== undefined) {
    for (const item of items) {
      walk.run.command(
        argv.map((a) =>
          a.text.includes(replace!)
            ? { ...a, text: a.text.split(replace!).join(item.text), via: item.via }
            : a,
        ),
        inner,
      );
    }
  } else {
    walk.run.command([...argv, ...items], inner);
  }
  return { unknown: 'the output of xargs' };
}

export function judgeParallel(args: Field[], walk: Walk, stdin?: Stream): Stream | undefined {
  const sep = args.findIndex((a) => a.text === ':::' || a.text === '::::');
  const head = sep >= 0 ? args.slice(0, sep) : args;
  let i = 0;
  while (i < head.length && head[i]!.text.startsWith('-'))
    i += /^-(?:j|P|S|--jobs|-joblog|-results)$/.test(head[i]!.text) ? 2 : 1;
  const command = head.slice(i);
  if (head.some((a) => a.text === '--pipe' || a.text === '--pipepart') && command.length > 0) {
    const inner = child(walk);
    return inner ? walk.run.command(command, inner, stdin) : undefined;
  }
  let items: Field[] = sep >= 0 ? args.slice(sep + 1).filter((a) => a.text !== ':::') : [];
  if (items.length === 0 && stdin?.literal !== undefined) {
    items = stdin.literal
      .split('\n')
      .filter((t) => t !== '')
      .map((text) => ({ text, dynamic: false }));
  }
  const inner = child(walk);
  if (!inner) return undefined;
  if (command.length === 0) {
    for (const item of items.slice(0, MAX_ITEMS)) runScriptField(item, inner, 'parallel');
    return undefined;
  }
  const script = joinFields(command);
  for (const item of items.slice(0, MAX_ITEMS)) {
    const line = script.includes('{}') ? script.split('{}').join(item.text) : `${script} ${item.text}`;
    walk.run.script(line, inner);
  }
  if (items.length === 0) walk.run.command(command, inner);
  return undefined;
}

export function judgeSshCommand(args: Field[], walk: Walk): void {
  const valued = new Set([
    '-p',
    '-i',
    '-l',
    '-o',
    '-F',
    '-J',
    '-L',
    '-R',
    '-D',
    '-b',
    '-c',
    '-E',
    '-e',
    '-m',
    '-O',
    '-Q',
    '-S',
    '-W',
    '-w',
    '-B',
    '-I',
  ]);
  let i = 0;
  while (i < args.length && args[i]!.text.startsWith('-')) i += valued.has(args[i]!.text) ? 2 : 1;
  const remote = args.slice(i + 1);
  if (remote.length === 0) return;
  const inner = child(walk);
  if (inner)
    runScriptField({ text: joinFields(remote), dynamic: remote.some((a) => a.dynamic) }, inner, 'ssh');
}

export function judgeContainerTool(name: string, args: Field[], walk: Walk): Stream | undefined {
  const texts = args.map((a) => a.text);
  const result = name === 'ctr' ? judgeCtrRun(texts, walk.ctx.cwd) : judgeContainerRun(texts, walk.ctx.cwd);
  if (result === undefined) return { unknown: `the output of ${name}` };
  const inner = child(walk);
  const before = walk.findings.length;
  if (inner && result.command.length > 0) {
    walk.run.command(
      result.command.map((text) => ({
        text,
        dynamic: false,
        ...(result.mapped ? { via: 'the container mounts' } : {}),
      })),
      inner,
    );
  }
  const wipes = walk.findings.slice(before).some((f) => f.code === 'DEST_MUTATION');
  // What runs inside and wipes the host is the narrower fact; otherwise the exposure is.
  if (!wipes)
    for (const exposure of result.exposures) push(walk, 'FILESYSTEM_DENIED', exposure, `command "${name}"`);
  return { unknown: `the output of ${name}` };
}

/** `tmux` subcommands whose last operand is a shell command. */
const TMUX_RUNS = new Set([
  'new-session',
  'new',
  'new-window',
  'neww',
  'split-window',
  'splitw',
  'respawn-pane',
  'respawnp',
  'respawn-window',
  'respawnw',
  'run-shell',
  'run',
]);

const TMUX_VALUED = new Set(['-t', '-s', '-n', '-c', '-e', '-F', '-x', '-y', '-l', '-p', '-w']);

/** Ansible modules whose `-a` is a shell command line. */
const ANSIBLE_SHELL_MODULES =
  /^(?:ansible\.builtin\.|ansible\.legacy\.)?(?:shell|command|raw|script|win_shell|win_command)$/;

/**
 * Programs that run a command line they are handed, locally, later or on other hosts: `at` and
 * `batch` (their standard input), `tmux new-session 'cmd'`, `tmux send-keys 'cmd' Enter`,
 * `screen -dm cmd`, `entr -s 'cmd'`, `ansible all -m shell -a 'cmd'`, `salt '*' cmd.run 'cmd'`,
 * `pdsh -w hosts cmd`, `aws ssm send-command --parameters commands=[…]`, `git -c alias.x='!cmd' x`
 * and git's command-valued settings. The command is judged as a script.
 */
export function launchedScript(
  name: string,
  args: Field[],
  walk: Walk,
  stdin?: Stream,
): Field | Field[] | undefined {
  const texts = args.map((a) => a.text);
  const field = (parts: Field[]): Field | undefined =>
    parts.length === 0
      ? undefined
      : {
          text: joinFields(parts),
          dynamic: parts.some((p) => p.dynamic),
          ...(parts.find((p) => p.opaque)?.opaque ? { opaque: parts.find((p) => p.opaque)!.opaque! } : {}),
        };
  switch (name) {
    case 'at':
    case 'batch': {
      if (texts.some((t) => /^-[lrdc]$/.test(t))) return undefined;
      const f = texts.indexOf('-f');
      const file = f >= 0 ? writtenFile(args[f + 1], walk) : stdin;
      if (file?.literal !== undefined) return { text: file.literal, dynamic: false };
      if (file !== undefined && f < 0) judgeStdinScript(file, walk, name);
      return undefined;
    }
    case 'tmux': {
      let i = 0;
      while (i < texts.length && texts[i]!.startsWith('-')) i += /^-[LSf]$/.test(texts[i]!) ? 2 : 1;
      const sub = texts[i];
      if (sub === 'send-keys' || sub === 'send') {
        const keys: Field[] = [];
        for (let k = i + 1; k < args.length; k++) {
          if (texts[k] === '-t' || texts[k] === '-N') k++;
          else if (/^-[lRMHKX]+$/.test(texts[k]!)) continue;
          else if (!/^(?:Enter|C-m|KPEnter|C-j)$/.test(texts[k]!)) keys.push(args[k]!);
        }
        return field(keys);
      }
      if (sub === undefined || !TMUX_RUNS.has(sub)) return undefined;
      let k = i + 1;
      while (k < args.length && texts[k]!.startsWith('-')) k += TMUX_VALUED.has(texts[k]!) ? 2 : 1;
      return field(args.slice(k));
    }
    case 'screen': {
      let k = 0;
      while (k < args.length && texts[k]!.startsWith('-'))
        k += /^-(?:[dDmRr]*[St]|c|e|h|L[a-z]*|p|T|X)$/.test(texts[k]!) ? 2 : 1;
      if (texts.some((t) => /^-(?:ls|list|r|R|x|X|wipe)$/.test(t)) || k >= args.length) return undefined;
      return args.slice(k);
    }
    case 'entr': {
      const sFlag = texts.findIndex((t) => /^-[a-z]*s[a-z]*$/.test(t));
      if (sFlag >= 0) return args[sFlag + 1];
      const k = texts.findIndex((t) => !t.startsWith('-'));
      return k < 0 ? undefined : args.slice(k);
    }
    case 'ansible':
    case 'ansible-console': {
      const m = texts.findIndex((t) => t === '-m' || t === '--module-name');
      const a = texts.findIndex((t) => t === '-a' || t === '--args');
      const module = m >= 0 ? texts[m + 1] : 'command';
      if (a < 0 || args[a + 1] === undefined) return undefined;
      if (module !== undefined && ANSIBLE_SHELL_MODULES.test(module)) return args[a + 1];
      if (module !== undefined && /(?:^|\.)file$/.test(module)) {
        const spec = texts[a + 1]!;
        const path = /(?:^|\s)(?:path|dest|name)=("[^"]*"|'[^']*'|\S+)/
          .exec(spec)?.[1]
          ?.replace(/^["']|["']$/g, '');
        if (
          path &&
          /(?:^|\s)state=absent\b/.test(spec) &&
          wipeTarget({ text: path, dynamic: false }, walk.ctx)
        ) {
          destructive(
            walk,
            `ansible file state=absent removes ${describeTarget(path)} on every host`,
            'command "ansible"',
          );
        }
      }
      return undefined;
    }
    case 'salt':
    case 'salt-ssh':
    case 'salt-call': {
      const fn = texts.findIndex((t) => /^cmd\.(?:run|shell|run_all|run_stdout|exec_code|script)$/.test(t));
      return fn >= 0 ? args[fn + 1] : undefined;
    }
    case 'pdsh':
    case 'pssh':
    case 'parallel-ssh':
    case 'clush':
    case 'dsh': {
      let k = 0;
      while (k < args.length && texts[k]!.startsWith('-'))
        k += /^-(?:[wxgRlhHpOtoOe]|-hosts|-host|-user|-par|-timeout|-outdir|-errdir|-group|-nodes)$/.test(
          texts[k]!,
        )
          ? 2
          : 1;
      // pdsh and friends join their words into one remote command line, as ssh does.
      return field(args.slice(k));
    }
    case 'aws': {
      if (!texts.includes('ssm') || !texts.includes('send-command')) return undefined;
      const p = texts.findIndex((t) => t === '--parameters' || t.startsWith('--parameters='));
      if (p < 0) return undefined;
      const spec =
        texts[p]!.includes('=') && texts[p]!.startsWith('--parameters=')
          ? texts[p]!.slice(13)
          : (texts[p + 1] ?? '');
      const commands: string[] = [];
      for (const m of spec.matchAll(/"((?:[^"\\]|\\.)*)"/g))
        if (m[1] !== 'commands') commands.push(m[1]!.replace(/\\(.)/g, '$1'));
      if (commands.length === 0) {
        const bare = /commands=\[?([^\]]*)\]?/.exec(spec)?.[1];
        if (bare) commands.push(...bare.split(','));
      }
      return commands.length === 0
        ? undefined
        : { text: commands.join('\n'), dynamic: args[p + 1]?.dynamic === true };
    }
    case 'git': {
      // `git -c alias.x='!cmd' x`, `git -c core.fsmonitor='cmd' status`: settings that run commands.
      const scripts: string[] = [];
      const alias = new Map<string, string>();
      for (let k = 0; k < texts.length; k++) {
        if (texts[k] !== '-c' || texts[k + 1] === undefined) continue;
        const m = /^([\w.-]+)=(.*)$/s.exec(texts[k + 1]!);
        if (!m) continue;
        const key = m[1]!.toLowerCase();
        if (key.startsWith('alias.') && m[2]!.startsWith('!')) alias.set(key.slice(6), m[2]!.slice(1));
        else if (
          /^(?:core\.(?:pager|sshcommand|fsmonitor|editor|askpass)|sequence\.editor|diff\.external|pager\.\w+|gpg\.program|credential\.helper|uploadpack\.packobjectshook)$/.test(
            key,
          ) &&
          m[2] !== ''
        )
          scripts.push(m[2]!.replace(/^!/, ''));
      }
      const sub = texts.find((t, k) => !t.startsWith('-') && texts[k - 1] !== '-c' && texts[k - 1] !== '-C');
      if (sub !== undefined && alias.has(sub.toLowerCase())) scripts.push(alias.get(sub.toLowerCase())!);
      return scripts.length === 0 ? undefined : { text: scripts.join('\n'), dynamic: false };
    }
    default:
      return undefined;
  }
}
