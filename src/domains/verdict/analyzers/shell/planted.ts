import type { Finding } from '../../codes.ts';
import type { Step } from '../../effects.ts';
import { autoRunCommands, DEFAULT_PATH_CONTEXT, normalizePath } from '../paths.ts';
import { runLater } from '../run-later.ts';
import { readShell } from '../shell.ts';
import { analyzeScript } from './script.ts';
import {
  child,
  describeTarget,
  type Field,
  type ShellOptions,
  type ShellReading,
  type Stream,
  type Walk,
} from './state.ts';
import { writtenFile } from './written-files.ts';

/**
 * Files that run later: crontab tables installed, git hooks, start-up files and units written by
 * the command, judged as the commands they will run.
 */

/**
 * `crontab -` or `crontab file` installs the table it reads: each job's command will run, so it
 * is judged now (`(crontab -l; echo '* * * * * rm -rf /') | crontab -`). The table is the
 * standard input or a file written earlier in the command line; one of unknown content is not judged.
 */
export function judgeCrontab(args: Field[], walk: Walk, stdin?: Stream): void {
  const valued = new Set(['-u']);
  let table: Field | undefined;
  for (let i = 0; i < args.length; i++) {
    const text = args[i]!.text;
    if (valued.has(text)) i++;
    else if (text === '-') table = args[i];
    else if (text.startsWith('-')) {
      if (/^-[lre]/.test(text)) return;
    } else table ??= args[i];
  }
  const content = table === undefined || table.text === '-' ? stdin : writtenFile(table, walk);
  if (content?.literal === undefined) return;
  const inner = child(walk);
  if (!inner) return;
  for (const line of content.literal.split('\n').slice(0, 256)) {
    const job = cronCommand(line);
    if (job !== undefined) analyzeScript(job, inner);
  }
}

/** The command of one crontab line: after five time fields or an `@daily`-style nickname. */
function cronCommand(line: string): string | undefined {
  const text = line.trim();
  if (text === '' || text.startsWith('#') || /^[A-Za-z_][A-Za-z0-9_]*\s*=/.test(text)) return undefined;
  const m = /^(?:@\w+|(?:\S+\s+){4}\S+)\s+(.+)$/.exec(text);
  // `%` ends the command in a crontab line; what follows is its standard input.
  return m ? m[1]!.split(/(?<!\\)%/)[0] : undefined;
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

export function judgePlanted(path: string, text: string, walk: Walk): void {
  const { egress, paths, catalogue, execution } = walk.ctx;
  const reading = plantedReading(path, text, { egress, paths, catalogue, execution });
  walk.findings.push(...reading.findings);
  walk.steps.push(...reading.steps);
}
