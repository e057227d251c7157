import { echoOutput, printfOutput } from './decode.ts';
import { judgeRecursiveOwnership, judgeRm } from './destruction.ts';
import { isBlockDevice } from './named-paths.ts';
import { destructive, type Field, type Stream, type Walk } from './state.ts';
import { remember, withSensitiveOperands } from './written-files.ts';

/**
 * The generic reading of a program on this machine: what it prints (text, files, decoded data)
 * and what it destroys (rm, dd, shred, mkfs, chmod -R).
 */

export function judgeLocal(name: string, args: Field[], walk: Walk, stdin?: Stream): Stream | undefined {
  const texts = args.map((a) => a.text);
  switch (name) {
    case 'echo':
      return args.some((a) => a.dynamic)
        ? { unknown: 'printed text with unknown expansions' }
        : { literal: echoOutput(texts) };
    case 'printf': {
      const out = args.some((a) => a.dynamic) ? undefined : printfOutput(texts);
      return out === undefined ? { unknown: 'printed text with unknown expansions' } : { literal: out };
    }
    case 'cat':
    case 'tac':
    case 'head':
    case 'tail':
    case 'less':
    case 'more': {
      const files = texts.filter((t) => !t.startsWith('-') || t === '-');
      if (files.length === 0 || (files.length === 1 && files[0] === '-')) return stdin;
      return { files };
    }
    case 'base64':
    case 'base32':
    case 'basenc':
    case 'xxd':
    case 'rev':
    case 'tr':
    case 'openssl':
    case 'gunzip':
    case 'zcat':
    case 'gzip':
    case 'bzcat':
    case 'xzcat': {
      const files = name === 'tr' || name === 'openssl' ? [] : texts.filter((t) => !t.startsWith('-'));
      const source = files.length > 0 ? { files } : stdin;
      return {
        unknown: `data decoded by ${name}`,
        decoded: !/zcat|gunzip|gzip/.test(name),
        ...(source?.files ? { files: source.files } : {}),
        ...(source?.fetched ? { fetched: source.fetched } : {}),
        ...(source?.sensitive ? { sensitive: source.sensitive } : {}),
      };
    }
    case 'tee': {
      const append = texts.some((t) => t === '-a' || t === '--append');
      for (const t of texts) if (!t.startsWith('-')) remember(walk, t, stdin, append);
      return stdin;
    }
    case 'pwd':
      return { literal: `${walk.ctx.cwd.workspace}\n` };
    case 'ls': {
      // What ls lists is every entry of its directories: fed to xargs rm, the directories empty.
      const dirs = args.filter((a) => !a.text.startsWith('-'));
      const roots = (dirs.length === 0 ? [{ text: '.', dynamic: false }] : dirs).map((d) => ({
        ...d,
        text: `${d.text.replace(/\/+$/, '')}/*`,
      }));
      // `ls *.log` lists the files a pattern matched, not everything.
      return { found: { roots, narrowed: dirs.some((d) => /[*?[]/.test(d.text)) } };
    }
    case 'tar':
    case 'zip':
    case '7z':
    case 'gpg':
    case 'pg_dump':
    case 'pg_dumpall':
    case 'mysqldump':
    case 'mariadb-dump':
    case 'mongodump':
    case 'sqlite3': {
      // Archives and dumps print what they read: the files named, or a database.
      const files = texts.filter((t) => !t.startsWith('-') && !/^[cxtzvjfpr]+$/.test(t));
      const dump = /dump/.test(name) || (name === 'sqlite3' && texts.some((t) => t === '.dump'));
      return {
        unknown: `the output of ${name}`,
        files: dump ? [`${files[0] ?? 'database'}.sql`] : files,
      };
    }
    case 'rm':
    case 'rmdir':
    case 'unlink':
    case 'rimraf':
      judgeRm(name, args, walk);
      return undefined;
    case 'dd':
      for (const arg of args) {
        if (arg.text.startsWith('of=') && isBlockDevice(arg.text.slice(3))) {
          destructive(walk, 'dd writes over a block device', 'command "dd"');
        }
      }
      return undefined;
    case 'shred':
    case 'wipefs':
    case 'blkdiscard':
      if (args.some((a) => isBlockDevice(a.text)) || name !== 'shred') {
        destructive(walk, `${name} destroys a block device`, `command "${name}"`);
      }
      return undefined;
    case 'chmod':
    case 'chown':
    case 'chgrp':
      judgeRecursiveOwnership(name, args, walk);
      return undefined;
    case 'mkfifo':
    case 'true':
    case 'false':
    case ':':
      return undefined;
    default:
      if (/^mkfs(\.|$)|^mke2fs$|^mkswap$|^mkdosfs$/.test(name)) {
        destructive(walk, `${name} formats a file system`, `command "${name}"`);
      }
      return withSensitiveOperands({ unknown: `the output of ${name}` }, texts);
  }
}
