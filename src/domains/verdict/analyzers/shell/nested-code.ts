import { webLocalService } from '../egress/local-services.ts';
import { analyzeUrl, isTrustedHost } from '../egress.ts';
import { judgeDatabaseCode } from './db-code.ts';
import { wipeTarget } from './destruction.ts';
import { analyzeInlineCode, languageOf } from './inline-code.ts';
import { judgePath } from './named-paths.ts';
import {
  child,
  describeStream,
  describeTarget,
  destructive,
  type Field,
  hostOf,
  lookup,
  newScope,
  opaque,
  reverseShell,
  type Stream,
  type Value,
  type Walk,
} from './state.ts';
import { carriedSecrets, withSensitiveOperands, writtenFile } from './written-files.ts';

/**
 * Code a command hands to a shell or an interpreter (`sh -c`, `python -c`, a script written
 * earlier, standard input), judged like the top level.
 */

export function runScriptField(script: Field, walk: Walk, how: string): void {
  if (script.dynamic) {
    // Parts that are known are still judged: `eval "rm -rf $X"` with X unknown.
    if (script.text.trim() !== '') walk.run.script(script.text, walk);
    opaque(walk, script.opaque ?? `${how} of text built from unknown expansions`);
    return;
  }
  walk.run.script(script.text, walk);
}

/** A script file written earlier in the command line is judged as the code it holds. */
export function runWrittenScript(content: Stream, path: string, walk: Walk, how: string): void {
  const inner = child(walk);
  if (!inner) return;
  if (content.literal !== undefined) {
    // A shebang picks the interpreter; anything else runs as a shell script.
    const shebang = /^#!\s*(?:\S*\/)?(?:env\s+)?(\S+)/.exec(content.literal);
    const language = shebang ? languageOf(shebang[1]!) : 'other';
    if (shebang && language !== 'other')
      runInlineCode({ text: content.literal, dynamic: false }, language, inner);
    else walk.run.script(content.literal, inner);
    return;
  }
  judgeStdinScript(content, inner, `${how} (written to ${path} earlier in the command)`);
}

export function judgeStdinScript(stdin: Stream, walk: Walk, how: string): void {
  if (stdin.literal !== undefined) {
    walk.run.script(stdin.literal, walk);
    return;
  }
  if (stdin.socket) {
    reverseShell(walk, `${how} runs what ${stdin.socket} receives`);
    return;
  }
  if (stdin.fetched) {
    const host = stdin.fetched.host ?? hostOf(stdin.fetched.url);
    if (host !== undefined && isTrustedHost(host, walk.ctx.egress)) return;
    opaque(walk, `${how} runs ${describeStream(stdin)}, a host the account does not trust`);
    return;
  }
  if (stdin.files && !stdin.unknown) return;
  if (stdin.unknown) opaque(walk, `${how} runs ${stdin.unknown}`);
}

/**
 * What a shell runs before its script: `BASH_ENV` (bash, not interactive), `ENV` (sh -i),
 * `PROMPT_COMMAND` (interactive bash), `--rcfile`/`--init-file`.
 */
function judgeStartupHooks(name: string, args: Field[], walk: Walk): void {
  const interactive = args.some((a) => a.text === '-i' || /^-[a-zA-Z]*i[a-zA-Z]*$/.test(a.text));
  const hooks: { file?: Field; script?: Value; what: string }[] = [];
  const rc = args.findIndex((a) => a.text === '--rcfile' || a.text === '--init-file');
  if (rc >= 0 && args[rc + 1]) hooks.push({ file: args[rc + 1]!, what: args[rc]!.text });
  const bashEnv = name === 'bash' && !interactive ? lookup(walk, 'BASH_ENV') : undefined;
  if (bashEnv !== undefined)
    hooks.push({ file: { text: bashEnv.text, dynamic: !bashEnv.known }, what: 'BASH_ENV' });
  const env = interactive && name !== 'bash' ? lookup(walk, 'ENV') : undefined;
  if (env !== undefined) hooks.push({ file: { text: env.text, dynamic: !env.known }, what: 'ENV' });
  const prompt = interactive && name === 'bash' ? lookup(walk, 'PROMPT_COMMAND') : undefined;
  if (prompt !== undefined) hooks.push({ script: prompt, what: 'PROMPT_COMMAND' });
  for (const hook of hooks) {
    if (hook.script !== undefined) {
      runScriptField(
        {
          text: hook.script.text,
          dynamic: !hook.script.known,
          ...(hook.script.opaque ? { opaque: hook.script.opaque } : {}),
        },
        walk,
        hook.what,
      );
      continue;
    }
    const content = hook.file!.proc ?? writtenFile(hook.file, walk);
    if (content !== undefined)
      runWrittenScript(content, hook.file!.text || '<(…)', walk, `${name} ${hook.what}`);
    else if (hook.file!.dynamic || hook.file!.opaque)
      opaque(walk, hook.file!.opaque ?? `${hook.what} names a file whose path is unknown`);
  }
}

export function judgeShell(name: string, args: Field[], walk: Walk, stdin?: Stream): Stream | undefined {
  judgeStartupHooks(name, args, walk);
  let i = 0;
  let interactive = false;
  while (i < args.length) {
    const text = args[i]!.text;
    if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(text)) {
      const script = args[i + 1];
      if (!script) return undefined;
      const inner = child(walk, newScope(args.slice(i + 2), walk.scope));
      if (inner) runScriptField(script, inner, `${name} -c`);
      return undefined;
    }
    if (text === '-i') interactive = true;
    if (text === '-o' || text === '-O' || text === '+O' || text === '--rcfile' || text === '--init-file')
      i += 2;
    else if (text.startsWith('-') || text.startsWith('+')) i++;
    else break;
  }
  const file = args[i];
  if (file) {
    const written = file.proc ?? writtenFile(file, walk);
    if (written) runWrittenScript(written, file.text || '<(…)', walk, `${name} ${file.text || '<(…)'}`);
    else if (file.opaque || file.dynamic)
      opaque(walk, file.opaque ?? `${name} runs a script whose path is unknown`);
    return interactive ? { shell: true } : { unknown: `the output of ${name}` };
  }
  if (stdin) judgeStdinScript(stdin, walk, name);
  return { shell: true };
}

export function judgeInterpreter(
  name: string,
  args: Field[],
  walk: Walk,
  stdin?: Stream,
): Stream | undefined {
  const language = languageOf(name);
  const flag = args.findIndex(
    (w) =>
      /^(?:-c|-e|-E|-r|-p|--eval|--print|-ne|-pe|-le|-lne)$/.test(w.text) ||
      (name === 'deno' && w.text === 'eval'),
  );
  if (flag >= 0) {
    const code = args[flag + 1];
    if (code) runInlineCode(code, language, walk);
    return withSensitiveOperands(
      { unknown: `the output of ${name}` },
      args.slice(flag + 2).map((a) => a.text),
    );
  }
  const script = args.find((a) => !a.text.startsWith('-'));
  if (script && script.text !== '-') {
    const written = script.proc ?? writtenFile(script, walk);
    if (written?.literal !== undefined)
      runInlineCode({ text: written.literal, dynamic: false }, language, walk);
    else if (written) judgeStdinScript(written, walk, `${name} ${script.text || '<(…)'}`);
    else if (script.opaque || (script.dynamic && script.text === ''))
      opaque(walk, script.opaque ?? `${name} runs a script whose path is unknown`);
    return { unknown: `the output of ${name}` };
  }
  if (stdin?.literal !== undefined) runInlineCode({ text: stdin.literal, dynamic: false }, language, walk);
  else if (stdin?.socket) reverseShell(walk, `${name} runs what ${stdin.socket} receives`);
  else if (stdin?.fetched) judgeStdinScript(stdin, walk, name);
  else if (stdin?.unknown) opaque(walk, `${name} runs ${stdin.unknown}`);
  return { unknown: `the output of ${name}` };
}

export function runInlineCode(code: Field, language: ReturnType<typeof languageOf>, walk: Walk): void {
  if (code.dynamic) opaque(walk, code.opaque ?? 'inline code built from unknown expansions');
  walk.findings.push(...judgeDatabaseCode(code.text));
  const inner = child(walk);
  if (!inner) return;
  analyzeInlineCode(code.text, language, {
    script(command) {
      walk.run.script(command, inner);
    },
    argv(argv) {
      walk.run.command(
        argv.map((text) => ({ text, dynamic: false })),
        inner,
      );
    },
    recursiveDelete(path, how) {
      if (wipeTarget({ text: path, dynamic: false }, walk.ctx)) {
        destructive(walk, `${how} removes ${describeTarget(path)} recursively`, 'inline code');
      }
    },
    path(text) {
      judgePath(text, walk, false);
    },
    url(text) {
      // As from the shell itself: the agent's own dev server on loopback is its environment.
      if (webLocalService(text, walk.ctx.egress.local_origins)?.own === true) return;
      walk.findings.push(...analyzeUrl(text, walk.ctx.egress));
    },
    code(more) {
      runInlineCode({ text: more, dynamic: false }, language, inner);
    },
    opaque(what) {
      opaque(walk, what);
    },
    reverseShell(how) {
      reverseShell(walk, how);
    },
    forkBomb() {
      destructive(walk, 'fork bomb', 'inline code');
    },
    copyOf(path) {
      return carriedSecrets(path, walk)[0];
    },
    sends(what, urls) {
      // No URL in the code: the destination is built at run time, so no account trusts it.
      const hosts = urls.map((u) => hostOf(u));
      if (hosts.length > 0 && hosts.every((h) => h !== undefined && isTrustedHost(h, walk.ctx.egress)))
        return;
      walk.findings.push({
        code: 'EXFILTRATION_BLOCKED',
        message: `inline code sends ${what} to ${hosts[0] ?? 'a host it does not name in a URL'}, a destination the account does not trust`,
        location: 'inline code',
      });
    },
  });
}
