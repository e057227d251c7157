import { judgeArgv as judgeCatalogue } from '../../catalogue/index.ts';
import { judgeGuards } from '../../registry/guards.ts';
import { normalizePath } from '../paths.ts';
import { inputFile, judgeCommandsOnStdin } from './data-stores.ts';
import { frameworkCode, judgeDatabaseCode } from './db-code.ts';
import { withCurrentBranch } from './git.ts';
import { splitLiteral } from './linear-reader.ts';
import { isBlockDevice, judgePathsInArgs } from './named-paths.ts';
import { runScriptField, runWrittenScript } from './nested-code.ts';
import { judgeProgram } from './program-judges.ts';
import { printedSecret } from './secret-variables.ts';
import {
  assign,
  baseName,
  child,
  describeTarget,
  type Field,
  joinFields,
  lookup,
  MAX_COMMANDS,
  NEXT,
  newScope,
  opaque,
  overBudget,
  type ProgramCall,
  type Stream,
  type Walk,
} from './state.ts';
import { stepOf, unknownProgram } from './steps.ts';
import { judgeGoEnvironment, judgeSupplyChain } from './supply-chain.ts';
import { terraformEnvArgs } from './terraform.ts';
import { unwrap } from './wrappers.ts';
import { writtenFile } from './written-files.ts';

/**
 * One simple command: what it resolves to (aliases, functions, wrappers), the rules that judge it
 * by its words, the step it reduces to, and its program's judges (`program-judges.ts`).
 */

export function judgeCommand(words: Field[], walk: Walk, stdin?: Stream): Stream | undefined {
  if (walk.budget.commands++ >= MAX_COMMANDS) {
    overBudget(walk, `more than ${MAX_COMMANDS} commands`);
    return undefined;
  }
  // `$_` is the last word of the command before: `echo /; rm -rf "$_"`.
  const lastWord = words[words.length - 1];
  if (lastWord !== undefined) assign(walk, '_', { text: lastWord.text, known: !lastWord.dynamic });
  const before = walk.findings.length;
  const output = dispatch(words, walk, stdin);
  annotate(words, walk, before);
  // Which commands made the data, for egress (`tar czf - .env | curl -T -`); spelled out only
  // when a network tool reads it.
  if (output !== undefined && output.literal === undefined && output.producer === undefined) {
    output.producer = stdin === undefined ? { words } : { words, stdin };
  }
  return output;
}

/** Messages say what was resolved: "… (after expanding $X: rm -rf /)". */
function annotate(words: Field[], walk: Walk, from: number): void {
  if (from === walk.findings.length || !words.some((w) => w.via !== undefined)) return;
  const vias = [...new Set(words.map((w) => w.via).filter((v): v is string => v !== undefined))];
  const resolved = describeTarget(joinFields(words));
  for (let i = from; i < walk.findings.length; i++) {
    const finding = walk.findings[i]!;
    if (finding.message.includes('(after ')) continue;
    walk.findings[i] = {
      ...finding,
      message: `${finding.message} (after ${vias.slice(0, 3).map(expansionNote).join(', ')}: ${resolved})`,
    };
  }
}

/** The Go settings a command sees, where the command line set them. */
function goEnvironment(walk: Walk): Map<string, string> {
  const env = new Map<string, string>();
  for (const name of ['GOSUMDB', 'GONOSUMDB', 'GONOSUMCHECK', 'GOFLAGS', 'GOINSECURE']) {
    const value = lookup(walk, name);
    if (value?.known) env.set(name, value.text);
  }
  return env;
}

function expansionNote(via: string): string {
  return via.startsWith('$') ? `expanding ${via}` : `resolving ${via}`;
}

function dispatch(words: Field[], walk: Walk, stdin?: Stream): Stream | undefined {
  if (words.length === 0) return undefined;
  const defined = runDefinition(words, walk, stdin);
  if (defined !== NEXT) return defined;
  if (printsEnvironment(words)) return { unknown: 'the process environment', sensitive: ENVIRONMENT };
  const unwrapped = unwrap(words, walk);
  if (unwrapped.script) {
    runScriptField(unwrapped.script, walk, 'a wrapped command');
    return undefined;
  }
  const argv = unwrapped.argv;
  if (argv.length === 0) return undefined;
  const program = argv[0]!;
  if (program.dynamic) {
    walk.steps.push(unknownProgram(program.opaque ?? 'an expansion whose value is unknown'));
    // An unknown variable, fetched or decoded data as the program is opaque code; a path that a
    // substitution computes (`$(readlink -f …)`) names some program on this machine.
    if (program.codeLike) {
      opaque(walk, `the command name comes from ${program.opaque ?? 'an expansion whose value is unknown'}`);
    }
    judgePathsInArgs(argv.slice(1), walk);
    return { unknown: 'the output of an unknown command' };
  }
  if (program.text.includes('/')) {
    const written = writtenFile(program, walk);
    if (written) runWrittenScript(written, program.text, walk, program.text);
  }
  const windows = isWindowsLine(program, argv);
  const name = baseName(windows ? (program.raw ?? program.text) : program.text);
  const args = windows
    ? argv.slice(1).map((a) => (a.raw === undefined ? a : { ...a, text: a.raw }))
    : argv.slice(1);
  const texts = args.map((a) => a.text);
  // Terraform reads more arguments from TF_CLI_ARGS and TF_CLI_ARGS_<command>.
  if (/^(?:terraform|tofu)$/.test(name)) texts.push(...terraformEnvArgs(texts, walk));
  if (name === 'git') texts.splice(0, texts.length, ...withCurrentBranch(texts, walk));
  const call: ProgramCall =
    stdin === undefined ? { name, args, texts, walk } : { name, args, texts, walk, stdin };
  const runner = unwrapped.runnerArgv?.map((f) => f.text) ?? [];
  judgeRules(call, program, runner);
  // `gh auth token`, `kubectl config view --raw`: the output is a stored credential.
  const printed = printedSecret(name, texts);
  if (printed !== undefined) return { unknown: printed, sensitive: printed };
  judgeOperandPaths(call);
  return judgeProgram(call);
}

/** Aliases and functions defined earlier in the command run what they were defined as. */
function runDefinition(words: Field[], walk: Walk, stdin?: Stream): Stream | undefined | typeof NEXT {
  const first = words[0]!;
  const alias = first.dynamic ? undefined : walk.scope.aliases?.get(first.text);
  if (alias !== undefined) {
    const inner = child(walk);
    if (!inner) return undefined;
    const expanded = splitLiteral(alias).map((text) => ({
      text,
      dynamic: false,
      via: `alias ${first.text}`,
    }));
    return judgeCommand([...expanded, ...words.slice(1)], inner, stdin);
  }
  const fn = first.dynamic ? undefined : walk.scope.functions?.get(first.text);
  if (fn !== undefined) {
    const inner = child(walk, newScope(words, walk.scope));
    if (!inner) return undefined;
    inner.scope.functions?.delete(first.text);
    return walk.run.statement(fn, inner, stdin);
  }
  return NEXT;
}

/**
 * The rules that judge a command by its words (the catalogue, guards, supply chain, databases
 * reached through code), and the step of effects it reduces to.
 */
function judgeRules(call: ProgramCall, program: Field, runner: string[]): void {
  const { name, args, texts, walk, stdin } = call;
  const input = inputFile(name, args, walk, stdin);
  const catalogue = input
    ? judgeCatalogue([name, ...input.rest], walk.ctx.catalogue, input.literal)
    : judgeCatalogue([name, ...texts], walk.ctx.catalogue, stdin?.literal);
  if (runner.length > 0) catalogue.push(...judgeCatalogue(runner, walk.ctx.catalogue, stdin?.literal));
  if (stdin?.literal !== undefined) catalogue.push(...judgeCommandsOnStdin(name, texts, stdin.literal, walk));
  for (const finding of catalogue) {
    if (finding.location === 'opaque code' && walk.ctx.execution.allow_opaque) continue;
    walk.findings.push(finding);
  }
  // The catalogue's own rules, where one judged the command, speak for it; guards cover the rest.
  const guarded = catalogue.length > 0 ? undefined : judgeGuards(name, texts);
  if (guarded) walk.findings.push(...guarded.findings);
  const outside = judgeSupplyChain(name, texts, walk.ctx.egress);
  // `npx github:x/y`: the runner fetched what it now runs.
  if (runner.length > 0) {
    outside.push(
      ...judgeSupplyChain(baseName(runner[0]!), [...runner.slice(1), program.text], walk.ctx.egress),
    );
  }
  if (name === 'go') outside.push(...judgeGoEnvironment(goEnvironment(walk)));
  walk.findings.push(...outside);
  // `rails runner '…'`, `manage.py shell -c '…'`: code handed to the framework, which reaches its database.
  const handed = frameworkCode(name, texts);
  if (handed !== undefined) walk.findings.push(...judgeDatabaseCode(handed));
  walk.steps.push(
    guarded
      ? { effects: guarded.effects, recognised: true }
      : outside.length > 0
        ? { effects: [{ kind: 'install', target: name }], recognised: true }
        : stepOf(name, texts, program.text.includes('/') ? program.text : undefined, catalogue, runner[0]),
  );
}

/** The paths the operands name, where the program would resolve them. */
function judgeOperandPaths({ name, args, walk }: ProgramCall): void {
  // A disk tool's device operand is judged as destruction, not as a path read.
  const deviceTool = /^(?:mkfs.*|mke2fs|mkswap|mkdosfs|dd|shred|wipefs|blkdiscard)$/.test(name);
  const pathArgs = deviceTool ? args.filter((a) => !isBlockDevice(a.text.replace(/^of=/, ''))) : args;
  // `tar -C / -czf x etc/shadow`, `git -C /root …`, `make -C dir`: operands resolve in that directory.
  const chdir = /^(?:tar|gtar|bsdtar|git|make|gmake)$/.test(name)
    ? args.findIndex((a) => a.text === '-C' || a.text.startsWith('--directory='))
    : -1;
  const dir =
    chdir < 0
      ? undefined
      : args[chdir]!.text === '-C'
        ? args[chdir + 1]
        : { ...args[chdir]!, text: args[chdir]!.text.slice(12) };
  if (dir !== undefined && !dir.dynamic) {
    const saved = walk.ctx;
    walk.ctx = { ...saved, cwd: { ...saved.paths, workspace: normalizePath(dir.text, saved.cwd) } };
    judgePathsInArgs(pathArgs, walk);
    walk.ctx = saved;
  } else judgePathsInArgs(pathArgs, walk);
}

/** Programs that only exist on Windows, whose command lines keep their backslashes. */
const WINDOWS_PROGRAMS =
  /^(?:cmd|powershell|pwsh|rd|del|erase|vssadmin|wbadmin|bcdedit|cipher|diskpart|reg|takeown|icacls|cacls|wmic|robocopy|xcopy|schtasks|wevtutil|fsutil|netsh|[A-Z][a-z]+-[A-Z][A-Za-z]+)$/i;

/**
 * A command line a POSIX shell would not run: a Windows program, or a Windows path written
 * with backslashes. Its words are judged as written, not as a POSIX shell would unescape them.
 */
function isWindowsLine(program: Field, argv: readonly Field[]): boolean {
  const name = baseName(program.raw ?? program.text).replace(/\.(?:exe|com)$/i, '');
  if (WINDOWS_PROGRAMS.test(name)) return true;
  // `C:\x`, `\\host\share`, `%USERPROFILE%\x`: an argument only cmd reads this way.
  return argv.some(
    (a) => a.raw !== undefined && /^[A-Za-z]:\\|^\\\\|\\Windows\\|^%[A-Za-z_]\w*%\\/i.test(a.raw),
  );
}

const ENVIRONMENT = 'the process environment (where secrets such as API keys live)';

/** `env`, `printenv`, `set`, `export -p`, `declare -x`: commands that print every variable. */
function printsEnvironment(words: readonly Field[]): boolean {
  const name = baseName(words[0]?.text ?? '');
  const rest = words.slice(1).map((w) => w.text);
  if (name === 'env' || name === 'printenv') {
    return rest.every((t) => t.startsWith('-') || (name === 'env' && /^[A-Za-z_]\w*=/.test(t)));
  }
  if (name === 'set') return rest.length === 0;
  if (name === 'export' || name === 'declare' || name === 'typeset')
    return rest.length === 0 || rest.every((t) => /^-[px]+$/.test(t));
  return false;
}
