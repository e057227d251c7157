import { child, describeStream, type Field, type Stream, type Walk } from './state.ts';
import { writtenFile } from './written-files.ts';

/** crontab tables the command line installs, judged as the jobs they will run. */

/**
 * `crontab -` or `crontab file` installs the table it reads: each job's command will run, so it
 * is judged now (`(crontab -l; echo '* * * * * rm -rf /') | crontab -`). The table is the
 * standard input or a file written earlier in the command line; one of unknown content leaves the
 * step unrecognised (a person is asked), while a table file named on its own is judged as a file.
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
  if (content?.literal === undefined) {
    // A table of unknown content: jobs that will run by themselves, and no one knows which.
    if (table === undefined || table.text === '-' || content !== undefined) {
      walk.steps.push({
        effects: [{ kind: 'persistence', target: 'crontab' }],
        recognised: false,
        unrecognised: `crontab installs a table from ${describeStream(content) ?? 'its input'}, whose jobs are not known`,
      });
    }
    return;
  }
  const inner = child(walk);
  if (!inner) return;
  for (const line of content.literal.split('\n').slice(0, 256)) {
    const job = cronCommand(line);
    if (job !== undefined) walk.run.script(job, inner);
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
