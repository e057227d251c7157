import { programRunner, wrapperOf } from '../../registry/registry.ts';
import { normalizePath } from '../paths.ts';
import { assign, baseName, type Field, push, type Walk } from './state.ts';

/**
 * Wrappers, package runners and the programs that start a shell, as the program registry lists
 * them (`registry/programs.json`: role `wrapper` with its options, role `package-runner` and
 * `runsPrograms`). The forms below that no option list describes (`su`, `gdb --args`, `capsh --`,
 * `sg group 'cmd'`, `hyperfine`, `env -S`, `nsenter -t 1`) are read here.
 */

interface Unwrapped {
  argv: Field[];
  /** The command as a package runner was given it, before the runner was removed. */
  runnerArgv?: Field[];
  /** A script a wrapper runs as one string (`su -c '…'`, `env -S '…'`). */
  script?: Field;
}

export function unwrap(argv: Field[], walk: Walk): Unwrapped {
  let current = argv;
  let runnerArgv: Field[] | undefined;
  for (let guard = 0; guard < 12 && current.length > 0; guard++) {
    const first = current[0]!;
    const name = baseName(first.text);
    if (name === 'su') {
      const c = current.findIndex(
        (w) => w.text === '-c' || w.text === '--command' || w.text.startsWith('--command='),
      );
      // No command: su starts the user's shell, which reads its standard input.
      if (c < 0) return { argv: [{ text: 'sh', dynamic: false }] };
      const arg = current[c]!.text.startsWith('--command=')
        ? { ...current[c]!, text: current[c]!.text.slice(10) }
        : current[c + 1];
      return arg ? { argv: [], script: arg } : { argv: [] };
    }
    // `gdb -batch -ex run --args rm -rf /`: the words after --args are the program and its arguments.
    if (name === 'gdb' || name === 'lldb') {
      const args = current.findIndex((w) => w.text === '--args' || (name === 'lldb' && w.text === '--'));
      if (args < 0) return { argv: [] };
      current = current.slice(args + 1);
      continue;
    }
    // `capsh … -- -c 'cmd'`: what follows `--` goes to /bin/bash.
    if (name === 'capsh') {
      const dashes = current.findIndex((w) => w.text === '--');
      if (dashes < 0) return { argv: [] };
      current = [{ text: 'bash', dynamic: false }, ...current.slice(dashes + 1)];
      continue;
    }
    // `sg group 'cmd'` (the -c is optional): the word after the group is a command line for sh.
    if (name === 'sg' && !current.some((w) => w.text === '-c')) {
      const operands = current.slice(1).filter((w) => !w.text.startsWith('-'));
      return operands[1] ? { argv: [], script: operands[1] } : { argv: [] };
    }
    // `hyperfine 'cmd' …`: each operand, and --prepare, --setup and --cleanup, is a command line.
    if (name === 'hyperfine') {
      const scripts: Field[] = [];
      const valued =
        /^(?:-w|--warmup|-m|--min-runs|-M|--max-runs|-r|--runs|-n|--command-name|-S|--shell|-o|--output|--export-\w+|--style|--time-unit|--sort|-u)$/;
      const scriptValued = /^(?:-p|--prepare|-s|--setup|-c|--cleanup|--conclude)$/;
      for (let k = 1; k < current.length; k++) {
        const t = current[k]!.text;
        if (scriptValued.test(t)) scripts.push(current[++k]!);
        else if (/^(?:-P|--parameter-scan)$/.test(t)) k += 3;
        else if (/^(?:-L|--parameter-list)$/.test(t)) k += 2;
        else if (valued.test(t)) k++;
        else if (!t.startsWith('-')) scripts.push(current[k]!);
      }
      const known = scripts.filter((f) => f !== undefined);
      if (known.length === 0) return { argv: [] };
      return {
        argv: [],
        script: {
          text: known.map((f) => f.text).join('\n'),
          dynamic: known.some((f) => f.dynamic),
        },
      };
    }
    const wrapper = wrapperOf(name);
    const takesScript = wrapper?.scriptOptions;
    if (takesScript !== undefined && takesScript.size > 0) {
      const c = current.findIndex((w) => takesScript.has(w.text) || /^-[a-zA-Z]*c$/.test(w.text));
      if (c >= 0 && current[c + 1]) return { argv: [], script: current[c + 1]! };
    }
    if (name === 'env') {
      const s = current.findIndex(
        (w) => w.text === '-S' || w.text.startsWith('--split-string') || /^-[a-zA-Z]*S/.test(w.text),
      );
      if (s >= 0) {
        const w = current[s]!;
        const inline = w.text.startsWith('--split-string=')
          ? w.text.slice(15)
          : /^-[a-zA-Z]*S(.+)$/.exec(w.text)?.[1];
        const script = inline !== undefined ? { ...w, text: inline } : current[s + 1];
        if (script)
          return {
            argv: [],
            script: { ...script, text: [script.text, ...current.slice(s + 2).map((f) => f.text)].join(' ') },
          };
      }
    }
    if (name === 'command' && current.some((w, i) => i > 0 && (w.text === '-v' || w.text === '-V')))
      return { argv: [] };
    if (
      name === 'nsenter' &&
      current.some(
        (w, i) =>
          i > 0 &&
          /^(?:-t|--target)(?:=?1)?$/.test(w.text) &&
          (w.text.endsWith('1') || current[i + 1]?.text === '1'),
      )
    ) {
      push(
        walk,
        'FILESYSTEM_DENIED',
        "nsenter enters the host's namespaces (PID 1): everything on the host is exposed",
        'command "nsenter"',
      );
    }
    // Package runners run the program they are given: `npx rimraf /`, `pnpm exec rm -rf /`.
    const runner = programRunner(name);
    if (runner !== undefined && (runner === '' || current[1]?.text === runner)) {
      let k = runner === '' ? 1 : 2;
      while (k < current.length && current[k]!.text.startsWith('-')) {
        // Options that take a value (`uv run --with sentry-sdk python …`, `poetry run -C dir …`).
        k +=
          /^(?:-p|--package|--node-options|-c|--call|--with|--with-requirements|--with-editable|--python|--from|--project|--directory|-C|--env-file|--group|--extra|--index|--spec|-e|--environment|--filter|-F)$/.test(
            current[k]!.text,
          )
            ? 2
            : 1;
      }
      if (k < current.length) {
        // The catalogue knows runners too (`npx aws-cdk destroy` is `cdk destroy`): it sees both.
        runnerArgv ??= current;
        current = current.slice(k);
        continue;
      }
    }
    if (wrapper === undefined) break;
    const options = wrapper.valueOptions;
    let i = 1;
    let operands = wrapper.operands;
    // `sudo -s`, `sudo -i`, `doas -s` with no command start a shell, which reads standard input.
    let shell = false;
    while (i < current.length) {
      const text = current[i]!.text;
      if (name === 'env' && /^[A-Za-z_][A-Za-z0-9_]*=/.test(text)) {
        assign(walk, text.slice(0, text.indexOf('=')), {
          text: text.slice(text.indexOf('=') + 1),
          known: !current[i]!.dynamic,
        });
        i++;
      } else if (text === '--') {
        i++;
        break;
      } else if (name === 'env' && /^(?:-C|--chdir)(?:=|$)/.test(text)) {
        // `env -C dir cmd` runs cmd in dir: later relative paths resolve there.
        const dir = text.includes('=') ? text.slice(text.indexOf('=') + 1) : current[i + 1]?.text;
        if (dir !== undefined && !(text.includes('=') ? current[i]!.dynamic : current[i + 1]?.dynamic)) {
          walk.ctx = { ...walk.ctx, cwd: { ...walk.ctx.paths, workspace: normalizePath(dir, walk.ctx.cwd) } };
        }
        i += text.includes('=') ? 1 : 2;
      } else if (text.startsWith('-') && text.length > 1) {
        if (SHELL_FLAG[name]?.test(text)) shell = true;
        i += options.has(text) || clusterTakesValue(text, options) ? 2 : 1;
      } else if (operands > 0) {
        operands--;
        i++;
      } else break;
    }
    current = current.slice(i);
    if (current.length === 0 && shell) current = [{ text: 'sh', dynamic: false }];
  }
  return runnerArgv === undefined ? { argv: current } : { argv: current, runnerArgv };
}

/** Options that make a wrapper start a shell when no command follows: `sudo -s`, `sudo -iu root`, `doas -s`. */
const SHELL_FLAG: Record<string, RegExp> = {
  sudo: /^(?:-[A-Za-z]*[si][A-Za-z]*|--shell|--login)$/,
  doas: /^-[A-Za-z]*s[A-Za-z]*$/,
};

/**
 * A bundle of short options whose last letter takes a value (`-iu root`, `-Eu root`): the value
 * is the next word, as getopt reads it. A letter that takes a value mid-bundle takes the rest.
 */
function clusterTakesValue(text: string, options: ReadonlySet<string>): boolean {
  if (!/^-[A-Za-z]{2,}$/.test(text)) return false;
  for (let j = 1; j < text.length; j++) if (options.has(`-${text[j]}`)) return j === text.length - 1;
  return false;
}
