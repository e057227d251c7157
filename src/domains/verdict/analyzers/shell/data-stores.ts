import { judgeArgv as judgeCatalogue } from '../../catalogue/index.ts';
import type { Finding } from '../../codes.ts';
import { splitLiteral } from './linear-reader.ts';
import { child, type Field, MAX_ITEMS, type Stream, type Walk } from './state.ts';
import { writtenFile } from './written-files.ts';

/**
 * Data-store shells: commands read from standard input or an input file, and the shell escapes
 * of their own languages (psql's `\!`, sqlite3's `.shell`, sed's `e`).
 */

/**
 * Data-store shells read their commands on standard input too: `echo FLUSHALL | redis-cli`,
 * `echo 'db.dropDatabase()' | mongosh`. Each command is judged as if it were on the command line.
 */
export function judgeCommandsOnStdin(name: string, texts: string[], literal: string, walk: Walk): Finding[] {
  if (/^(?:redis|valkey|keydb)-cli$/.test(name)) {
    const findings: Finding[] = [];
    for (const line of literal.split('\n').slice(0, MAX_ITEMS)) {
      const words = splitLiteral(line);
      if (words.length > 0) findings.push(...judgeCatalogue([name, ...texts, ...words], walk.ctx.catalogue));
    }
    return findings;
  }
  if (name === 'mongosh' || name === 'mongo') {
    return judgeCatalogue([name, ...texts, '--eval', literal], walk.ctx.catalogue);
  }
  return [];
}

const DATA_STORE_SHELLS =
  /^(?:psql|pgcli|usql|mysql|mariadb|mycli|sqlcmd|sqlite3|litecli|duckdb|clickhouse-client|clickhouse|cqlsh|mongosh|mongo|redis-cli|valkey-cli|snowsql|trino|sqlplus|cockroach|cypher-shell)$/;

/**
 * A data-store shell told to read its commands from a file (`sqlcmd -i f.sql`, `psql -f -`,
 * `mysql --execute-file`): when the command line wrote that file, or it is standard input, the
 * catalogue reads those commands as the shell's standard input.
 */
export function inputFile(
  name: string,
  args: Field[],
  walk: Walk,
  stdin?: Stream,
): { literal: string; rest: string[] } | undefined {
  if (!DATA_STORE_SHELLS.test(name)) return undefined;
  const texts = args.map((a) => a.text);
  const at = texts.findIndex((t) =>
    /^(?:-i|-f|--file|--input-file|--execute-file|--filename|-input)$/.test(t),
  );
  if (at < 0 || args[at + 1] === undefined) return undefined;
  const file = args[at + 1]!;
  const source = file.text === '-' || file.text === '/dev/stdin' ? stdin : writtenFile(file, walk);
  if (source?.literal === undefined) return undefined;
  return { literal: source.literal, rest: [...texts.slice(0, at), ...texts.slice(at + 2)] };
}

/**
 * Database shells and sed run shell commands from their own input: psql's `\!`, mysql's
 * `system`/`\!`, sqlite3's `.shell`/`.system`, GNU sed's `e command`.
 */
export function judgeEmbeddedShellEscapes(name: string, args: Field[], walk: Walk, stdin?: Stream): void {
  let pattern: RegExp | undefined;
  if (/^(?:psql|pgcli|usql)$/.test(name)) pattern = /(?:^|\n|;)\s*\\!\s*([^\n]+)/g;
  else if (/^(?:mysql|mariadb|mycli)$/.test(name)) pattern = /(?:^|\n|;)\s*(?:\\!|system)\s+([^\n;]+)/gi;
  else if (/^(?:sqlite3|duckdb|litecli)$/.test(name)) pattern = /(?:^|\n|;)\s*\.(?:shell|system)\s+([^\n]+)/g;
  else if (name === 'sed' || name === 'gsed') pattern = /(?:^|[;\n{]|\d|\$|\/)\s*e\s+([^;\n}]+)/g;
  if (pattern === undefined) return;
  const texts = args.filter((a) => !a.dynamic).map((a) => a.text);
  if (stdin?.literal !== undefined) texts.push(stdin.literal);
  for (const text of texts) {
    for (const m of text.matchAll(pattern)) {
      const inner = child(walk);
      if (inner) walk.run.script(m[1]!.trim(), inner);
    }
  }
}
