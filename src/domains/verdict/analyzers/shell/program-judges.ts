import { PROGRAMS } from '../../registry/registry.ts';
import { analyzeHost } from '../egress.ts';
import { NETWORK_TOOLS } from '../network-tools.ts';
import {
  changeDirectory,
  copyWrittenFile,
  declare,
  defineAlias,
  evaluate,
  hashPath,
  listDirectories,
  popDirectory,
  printfToVariable,
  pushDirectory,
  readInput,
  setPositional,
  source,
  trap,
} from './builtins.ts';
import { judgeCrontab } from './crontab.ts';
import { judgeEmbeddedShellEscapes } from './data-stores.ts';
import { applyFilter } from './decode.ts';
import { judgeFind, judgeMove, judgeRsyncDelete } from './destruction.ts';
import { judgeCloudUpload, judgeMailer, judgeNetwork } from './egress-tools.ts';
import { judgeGitStaging } from './git.ts';
import {
  judgeContainerTool,
  judgeParallel,
  judgeSshCommand,
  judgeXargs,
  launchedScript,
} from './launchers.ts';
import { judgeLocal } from './local-programs.ts';
import { judgeInterpreter, judgeShell, runInlineCode, runScriptField } from './nested-code.ts';
import { child, joinFields, NEXT, type ProgramCall, type Stream } from './state.ts';
import { judgeSavedPlan } from './terraform.ts';
import { filterWrittenFile, rememberLink, rememberSecretCopies, writtenFile } from './written-files.ts';

/**
 * What the walk knows of a program beyond the registry's generic effects, as a table: program
 * name → its judges, run in order. A judge returns what the program prints, or NEXT when the
 * program's next judge still applies; after the last, `judgeOther` reads it generically. A
 * program with no judge is read generically too (its step comes from the registry either way).
 */
type Judge = (call: ProgramCall) => Stream | undefined | typeof NEXT;

/** A judge that only records or refuses: the program's next judge still applies. */
const then =
  (judge: (call: ProgramCall) => void): Judge =>
  (call) => {
    judge(call);
    return NEXT;
  };

function symbolicLink({ args, texts, walk }: ProgramCall): void {
  if (texts.some((t) => /^-[a-zA-Z]*s|^--symbolic$/.test(t))) rememberLink(args, walk);
}

const MAILERS = ['mail', 'mailx', 's-nail', 'sendmail', 'mutt', 'msmtp', 'neomutt'];
/** Package managers (CLIs in the registry) that also run JavaScript: `deno eval`, `bun -e`. */
const JAVASCRIPT_RUNTIMES = ['deno', 'bun'];

/**
 * The judges in the order they apply: a program listed in several runs them in this order.
 * Data-store shells' own escapes, launchers and uploads are named here by the programs their
 * judges read; each judge still checks the program's words itself.
 */
const STAGES: readonly (readonly [programs: readonly string[], judge: Judge])[] = [
  [['pushd'], pushDirectory],
  [['popd'], popDirectory],
  [['dirs'], listDirectories],
  [['cd', 'pushd'], changeDirectory],
  [['terraform', 'tofu', 'terragrunt'], then(({ name, texts, walk }) => judgeSavedPlan(name, texts, walk))],
  [['ln'], then(symbolicLink)],
  [['git'], then(({ texts, walk }) => judgeGitStaging(texts, walk))],
  [MAILERS, then(({ name, args, walk, stdin }) => judgeMailer(name, args, walk, stdin))],
  [
    ['aws', 'gsutil', 'gcloud', 'az', 'rclone', 'azcopy'],
    then(({ name, texts, walk }) => judgeCloudUpload(name, texts, walk)),
  ],
  [['mv'], then(({ args, walk }) => judgeMove(args, walk))],
  [['rsync'], then(({ args, walk }) => judgeRsyncDelete(args, walk))],
  [
    [
      'cp',
      'mv',
      'install',
      'ln',
      'rsync',
      'dd',
      'openssl',
      'gpg',
      'gpg2',
      'age',
      'zip',
      '7z',
      '7za',
      '7zz',
      'tar',
      'bsdtar',
    ],
    then(({ name, args, walk }) => rememberSecretCopies(name, args, walk)),
  ],
  [['crontab'], then(({ args, walk, stdin }) => judgeCrontab(args, walk, stdin))],
  [PROGRAMS.withRole('shell'), ({ name, args, walk, stdin }) => judgeShell(name, args, walk, stdin)],
  [['eval'], evaluate],
  [['hash'], hashPath],
  [['trap'], trap],
  [['cp', 'mv', 'install'], copyWrittenFile],
  [['set'], setPositional],
  [['alias'], defineAlias],
  [['source', '.'], source],
  [['printf'], printfToVariable],
  [['read', 'mapfile', 'readarray'], readInput],
  [['export', 'declare', 'typeset', 'local', 'readonly'], declare],
  [
    [...PROGRAMS.codeFollowed(), ...JAVASCRIPT_RUNTIMES],
    ({ name, args, walk, stdin }) => judgeInterpreter(name, args, walk, stdin),
  ],
  [['awk', 'gawk', 'mawk', 'nawk'], awk],
  [['xargs'], ({ args, walk, stdin }) => judgeXargs(args, walk, stdin)],
  [['find'], ({ args, walk }) => judgeFind(args, walk)],
  [['parallel'], ({ args, walk, stdin }) => judgeParallel(args, walk, stdin)],
  [['watch'], watch],
  [['ssh'], then(({ args, walk }) => judgeSshCommand(args, walk))],
  [
    [
      'at',
      'batch',
      'tmux',
      'screen',
      'entr',
      'ansible',
      'ansible-console',
      'salt',
      'salt-ssh',
      'salt-call',
      'pdsh',
      'pssh',
      'parallel-ssh',
      'clush',
      'dsh',
      'aws',
      'git',
    ],
    launched,
  ],
  [
    ['psql', 'pgcli', 'usql', 'mysql', 'mariadb', 'mycli', 'sqlite3', 'duckdb', 'litecli', 'sed', 'gsed'],
    then(({ name, args, walk, stdin }) => judgeEmbeddedShellEscapes(name, args, walk, stdin)),
  ],
  [['docker', 'podman', 'nerdctl', 'ctr', 'docker-compose', 'podman-compose'], container],
  [['kubectl', 'oc'], then(kubectlExec)],
  [['openssl'], openssl],
  [['ztcp'], ztcp],
  [
    [...NETWORK_TOOLS, 'nc.traditional', 'nc.openbsd'],
    ({ name, args, walk, stdin }) => judgeNetwork(name, args, walk, stdin),
  ],
];

const JUDGES = new Map<string, Judge[]>();
for (const [programs, judge] of STAGES) {
  for (const name of new Set(programs)) {
    const judges = JUDGES.get(name) ?? [];
    judges.push(judge);
    JUDGES.set(name, judges);
  }
}

/** The judges of a program: by the name written, else by the name the registry knows it under. */
function judgesOf(name: string): Judge[] | undefined {
  const written = JUDGES.get(name);
  if (written !== undefined) return written;
  const known = PROGRAMS.resolve(name);
  return known === undefined ? undefined : JUDGES.get(known);
}

/** What running the program does and prints, by its judges, then its generic reading. */
export function judgeProgram(call: ProgramCall): Stream | undefined {
  for (const judge of judgesOf(call.name) ?? []) {
    const result = judge(call);
    if (result !== NEXT) return result;
  }
  return judgeOther(call);
}

/** A filter over known text gives known text; any other program is read by its operands. */
function judgeOther({ name, args, texts, walk, stdin }: ProgramCall): Stream | undefined {
  const filtered =
    stdin?.literal !== undefined
      ? applyFilter(name, texts, stdin.literal)
      : filterWrittenFile(name, args, walk);
  if (filtered !== undefined) return { literal: filtered };
  return judgeLocal(name, args, walk, stdin);
}

function awk({ name, args, walk, stdin }: ProgramCall): Stream {
  const program = args.find(
    (a, i) => !a.text.startsWith('-') && !['-F', '-v', '-f'].includes(args[i - 1]?.text ?? ''),
  );
  if (program) runInlineCode(program, 'awk', walk);
  // `gawk -f /dev/stdin <<< 'BEGIN{…}'`, `awk -f prog.awk` written earlier in the command.
  const f = args.findIndex((a) => a.text === '-f');
  if (f >= 0) {
    const file = args[f + 1];
    const source =
      file && (file.text === '-' || file.text === '/dev/stdin') ? stdin : writtenFile(file, walk);
    if (source?.literal !== undefined) runInlineCode({ text: source.literal, dynamic: false }, 'awk', walk);
  }
  return { unknown: `the output of ${name}` };
}

function watch({ args, walk }: ProgramCall): undefined {
  let i = 0;
  while (i < args.length && args[i]!.text.startsWith('-'))
    i += /^-(?:n|d|-interval|-differences)$/.test(args[i]!.text) && args[i]!.text !== '-d' ? 2 : 1;
  runScriptField(
    { text: joinFields(args.slice(i)), dynamic: args.slice(i).some((a) => a.dynamic) },
    walk,
    'watch',
  );
  return undefined;
}

/** `at`, `tmux new 'cmd'`, `ansible -m shell -a 'cmd'`…: the command line they are handed. */
function launched({ name, args, walk, stdin }: ProgramCall): Stream | typeof NEXT {
  const script = launchedScript(name, args, walk, stdin);
  if (script === undefined) return NEXT;
  if (Array.isArray(script)) {
    const inner = child(walk);
    if (inner) walk.run.command(script, inner);
  } else runScriptField(script, walk, name);
  return { unknown: `the output of ${name}` };
}

function container({ name, args, walk }: ProgramCall): Stream | undefined | typeof NEXT {
  if (args.length === 0) return NEXT;
  if (name === 'docker-compose' || name === 'podman-compose')
    return judgeContainerTool(name, [{ text: 'compose', dynamic: false }, ...args], walk);
  return judgeContainerTool(name, args, walk);
}

/** `kubectl exec pod -- cmd`: the command runs in the pod. */
function kubectlExec({ args, walk }: ProgramCall): void {
  if (!args.some((a) => a.text === 'exec')) return;
  const dash = args.findIndex((a) => a.text === '--');
  if (dash < 0) return;
  const inner = child(walk);
  if (inner) walk.run.command(args.slice(dash + 1), inner);
}

function openssl(call: ProgramCall): Stream | undefined | typeof NEXT {
  const { name, args, texts, walk, stdin } = call;
  if (stdin?.literal !== undefined) {
    const decoded = applyFilter(name, texts, stdin.literal);
    if (decoded !== undefined) return { literal: decoded };
  }
  // Only openssl's s_client and s_time talk to the network; x509, req, dgst, enc… are local.
  if (!/^s_(?:client|time)$/.test(texts[0] ?? '')) return judgeLocal(name, args, walk, stdin);
  return NEXT;
}

/** zsh's `ztcp host port` opens a connection. */
function ztcp({ name, texts, walk }: ProgramCall): Stream | typeof NEXT {
  if (!texts[0] || texts[0].startsWith('-')) return NEXT;
  walk.findings.push(...analyzeHost(texts[0], walk.ctx.egress));
  return { socket: name };
}
