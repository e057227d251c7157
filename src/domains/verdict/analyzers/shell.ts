import { memoizeText } from '../../../lib/text-memo.ts';
import {
  type CatalogueContext,
  DEFAULT_CATALOGUE_CONTEXT,
  judgeWindowsCommandLine,
} from '../catalogue/index.ts';
import { type WebRequest, windowsGrammar } from '../catalogue/windows-command.ts';
import type { Finding } from '../codes.ts';
import type { Step } from '../effects.ts';
import { DEFAULT_EXECUTION_SETTINGS, type ExecutionSettings } from '../execution.ts';
import { DEFAULT_EGRESS_SETTINGS, type EgressSettings } from './egress.ts';
import { judgeNetworkCommand, type ToolWord } from './network-tools.ts';
import { autoRunCommands, DEFAULT_PATH_CONTEXT, normalizePath, type PathContext } from './paths.ts';
import { runLater } from './run-later.ts';
import { judgeCommand } from './shell/command.ts';
import { MAX_DECODED } from './shell/decode.ts';
import { judgePath, judgePathsInText } from './shell/named-paths.ts';
import { analyzeScript, parseAndWalk } from './shell/script.ts';
import {
  describeTarget,
  newScope,
  PARSE_LIMIT,
  type ShellOptions,
  type ShellReading,
  type Walk,
  type Walker,
} from './shell/state.ts';
import { runStmt, runSubstitution } from './shell/statements.ts';

/**
 * The shell analyzer's entry (`shell.exec`): a command line's findings and the steps of effects
 * it reduces to, and text written to a file that runs later, judged as what it will run. The walk
 * itself lives in `shell/` (verdict README, "Shell").
 */

export type { ShellReading } from './shell/state.ts';

/**
 * Analyses remembered per account policy (its egress, catalogue and execution objects, which
 * stay the same while the policy is cached) for the 1,000 most recent commands of at most 4 KiB:
 * agents repeat the same commands, and the result depends on nothing else when no cwd or env
 * is given.
 */
const remembered = new WeakMap<
  EgressSettings,
  WeakMap<CatalogueContext, WeakMap<ExecutionSettings, (command: string) => ShellReading>>
>();

function rememberedFor(
  egress: EgressSettings,
  catalogue: CatalogueContext,
  execution: ExecutionSettings,
): (command: string) => ShellReading {
  let byCatalogue = remembered.get(egress);
  if (byCatalogue === undefined) {
    byCatalogue = new WeakMap();
    remembered.set(egress, byCatalogue);
  }
  let byExecution = byCatalogue.get(catalogue);
  if (byExecution === undefined) {
    byExecution = new WeakMap();
    byCatalogue.set(catalogue, byExecution);
  }
  let analyze = byExecution.get(execution);
  if (analyze === undefined) {
    analyze = memoizeText(
      (command) => {
        const reading = analyzeOnce(command, { egress, catalogue, execution });
        return Object.freeze({
          findings: Object.freeze(reading.findings.map((f) => Object.freeze(f))) as Finding[],
          steps: Object.freeze(reading.steps) as Step[],
        });
      },
      { capacity: 1000, maxLength: 4096 },
    );
    byExecution.set(execution, analyze);
  }
  return analyze;
}

/** Findings for a shell.exec command line. */
export function analyzeShell(command: string, options: ShellOptions = {}): Finding[] {
  return [...readShell(command, options).findings];
}

/** Findings and steps for a shell.exec command line (both read-only when remembered). */
export function readShell(command: string, options: ShellOptions = {}): ShellReading {
  if (
    options.cwd === undefined &&
    options.env === undefined &&
    options.fastPaths !== false &&
    (options.paths === undefined || options.paths === DEFAULT_PATH_CONTEXT)
  ) {
    const analyze = rememberedFor(
      options.egress ?? DEFAULT_EGRESS_SETTINGS,
      options.catalogue ?? DEFAULT_CATALOGUE_CONTEXT,
      options.execution ?? DEFAULT_EXECUTION_SETTINGS,
    );
    return analyze(command);
  }
  return analyzeOnce(command, options);
}

/** The walk's entry points, handed down the walk (see Walker). */
const WALKER: Walker = {
  command: judgeCommand,
  script: analyzeScript,
  statement: runStmt,
  substitution: runSubstitution,
  planted: judgePlanted,
};

function analyzeOnce(command: string, options: ShellOptions): ShellReading {
  const base = options.paths ?? DEFAULT_PATH_CONTEXT;
  const cwd = options.cwd ? { ...base, workspace: normalizePath(options.cwd, base) } : base;
  // A cwd inside the account's workspace runs in that working tree: wiping a sub-directory of it
  // is ordinary clean-up. A cwd elsewhere is a working tree of its own.
  const inside = cwd.workspace === base.workspace || cwd.workspace.startsWith(`${base.workspace}/`);
  const paths = inside ? base : cwd;
  // `$0` of a command line is the shell that runs it.
  const scope = newScope([{ text: 'sh', dynamic: false }]);
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (typeof value === 'string') {
      scope.vars ??= new Map();
      scope.vars.set(name, { text: value.slice(0, MAX_DECODED), known: true });
    }
  }
  const egress = options.egress ?? DEFAULT_EGRESS_SETTINGS;
  const walk: Walk = {
    ctx: {
      egress,
      paths,
      cwd,
      configured: base,
      links: new Map(),
      staged: [],
      catalogue: {
        ...(options.catalogue ?? DEFAULT_CATALOGUE_CONTEXT),
        webRequest: (request) => judgeWebRequest(request, egress, paths),
      },
      execution: options.execution ?? DEFAULT_EXECUTION_SETTINGS,
      written: new Map(),
    },
    findings: [],
    steps: [],
    depth: 0,
    scope,
    budget: { commands: 0, parsed: 0, exhausted: false },
    run: WALKER,
  };
  if (options.cwd) judgePath(options.cwd, walk, false);
  for (const value of Object.values(options.env ?? {}))
    if (typeof value === 'string') judgePathsInText(value, walk);
  parseAndWalk(command, walk, options.fastPaths ?? true);
  judgePowerShellLine(command, walk);
  return { findings: walk.findings, steps: walk.steps };
}

/**
 * A request a PowerShell web cmdlet would send, judged as curl's would be: the destination, and a
 * file or literal body it uploads (`Invoke-RestMethod -Uri u -Method Post -InFile .env`).
 */
function judgeWebRequest(request: WebRequest, egress: EgressSettings, paths: PathContext): Finding[] {
  const words: ToolWord[] = [
    '-X',
    request.method,
    ...(request.file !== undefined ? ['-T', request.file] : []),
    ...(request.body !== undefined ? ['--data', request.body] : []),
    request.url,
  ].map((text) => ({ text, dynamic: false }));
  return judgeNetworkCommand('curl', words, undefined, { egress, paths }).map((finding) => ({
    ...finding,
    message: finding.message.replace(/^curl\b/, request.cmdlet),
    ...(finding.location ? { location: finding.location.replace(/"curl"/, `"${request.cmdlet}"`) } : {}),
  }));
}

/**
 * A PowerShell line is read whole by the catalogue's PowerShell reader too: the POSIX reading
 * splits `Get-ChildItem C:\ | Remove-Item -Recurse` into stages that are harmless alone, and
 * drops the parentheses of `{ $_.Delete() }`.
 */
function judgePowerShellLine(command: string, walk: Walk): void {
  if (command.length > PARSE_LIMIT || windowsGrammar(command) !== 'powershell') return;
  for (const finding of judgeWindowsCommandLine(command, walk.ctx.catalogue) ?? []) {
    if (finding.location === 'opaque code' && walk.ctx.execution.allow_opaque) continue;
    if (walk.findings.some((f) => f.code === finding.code && f.message === finding.message)) continue;
    walk.findings.push(finding);
  }
}

/**
 * `echo 'rm -rf ~' > .git/hooks/pre-commit`, `>> ~/.bashrc`, a unit's `ExecStart=`: text written
 * to a file that runs later is judged as the command it will be, as `fs.write` of it is. A local
 * tool's output evaluated there (`eval "$(starship init bash)"`) is ordinary; fetched code is not.
 */
let plantedDepth = 0;

/** Planted files inside planted files judged (a start-up file that writes a hook that…). */
const MAX_PLANTED_DEPTH = 2;

/**
 * Findings for text written to `path` when that file runs later (a git hook, a shell start-up
 * file, a systemd unit: `autoRunCommands`), as the command it will be. A local tool's output
 * evaluated there (`eval "$(starship init bash)"`) is ordinary; fetched code is not. `fs.write`
 * and the shell's own writes (`echo … >> ~/.bashrc`) both come here.
 */
export function plantedFindings(
  path: string,
  content: string,
  options: Pick<ShellOptions, 'egress' | 'paths' | 'catalogue' | 'execution'>,
): Finding[] {
  return plantedReading(path, content, options).findings;
}

/** `plantedFindings`, with the steps of the commands the file will run. */
export function plantedReading(
  path: string,
  content: string,
  options: Pick<ShellOptions, 'egress' | 'paths' | 'catalogue' | 'execution'>,
): ShellReading {
  if (plantedDepth >= MAX_PLANTED_DEPTH) return { findings: [], steps: [] };
  const paths = options.paths ?? DEFAULT_PATH_CONTEXT;
  let commands = autoRunCommands(path, content, paths);
  let where = describeTarget(path);
  const findings: Finding[] = [];
  if (commands.length === 0) {
    const later = runLater(normalizePath(path, paths), content);
    if (later === undefined) return { findings: [], steps: [] };
    commands = later.commands;
    where = `${where}, ${later.kind}`;
    if (later.approvesEverything !== undefined) {
      findings.push({
        code: 'POLICY_VIOLATION',
        message: `${later.approvesEverything} lets the agent run every command without asking (security control: a change only a person should make)`,
        location: `path ${describeTarget(path)}`,
      });
    }
  }
  const steps: Step[] = [];
  plantedDepth++;
  try {
    // `env: {}` keeps these out of the per-command memo: their result depends on the depth.
    for (const command of commands) {
      const reading = readShell(command, { ...options, env: {} });
      steps.push(...reading.steps);
      findings.push(
        ...reading.findings
          .filter(
            (f) =>
              !(f.code === 'POLICY_VIOLATION' && f.location === 'opaque code' && !/\bfetch/.test(f.message)),
          )
          .map((f) => ({ ...f, message: `${f.message} (written to ${where}, which runs it later)` })),
      );
    }
  } finally {
    plantedDepth--;
  }
  return { findings, steps };
}

function judgePlanted(path: string, text: string, walk: Walk): void {
  const { egress, paths, catalogue, execution } = walk.ctx;
  const reading = plantedReading(path, text, { egress, paths, catalogue, execution });
  walk.findings.push(...reading.findings);
  walk.steps.push(...reading.steps);
}
