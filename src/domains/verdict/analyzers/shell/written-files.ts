import { sensitiveFileKind } from '../egress/content.ts';
import { normalizePath } from '../paths.ts';
import { applyFilter, MAX_DECODED } from './decode.ts';
import { describeStream, type Field, MAX_WRITTEN_FILES, type Stream, type Walk } from './state.ts';

/**
 * Files written earlier in the command line (scripts, fetches, copies of secret files) and links
 * made: what a later command that reads, runs or uploads them gets.
 */

/**
 * A file written earlier in the command line: `echo 'rm -rf /' > x.sh` remembers the literal,
 * `curl -o x.sh URL` what the fetch returns, anything else as unknown output.
 */
export function remember(walk: Walk, target: string, content: Stream | undefined, append = false): void {
  const written = walk.ctx.written;
  if (target === '') return;
  const key = normalizePath(target, walk.ctx.cwd);
  if (content?.literal !== undefined) walk.run.planted(key, content.literal, walk);
  if (!written.has(key) && written.size >= MAX_WRITTEN_FILES) return;
  const before = append ? written.get(key) : undefined;
  const stream: Stream =
    content === undefined
      ? { unknown: 'the output of a command' }
      : content.literal !== undefined
        ? { literal: content.literal.slice(0, MAX_DECODED) }
        : content;
  if (before?.literal !== undefined && stream.literal !== undefined) {
    written.set(key, { literal: (before.literal + stream.literal).slice(0, MAX_DECODED) });
  } else if (before !== undefined && before.literal !== '') {
    written.set(key, { unknown: describeStream(before) ?? 'the output of a command' });
  } else {
    written.set(key, stream);
  }
}

/**
 * The secret files a file made earlier in the command line holds: `cp .env /tmp/x`,
 * `cat .env > n`, `ln -s .env x`, `tar czf a.tgz .env`. An upload of the copy is an upload of them.
 */
export function carriedSecrets(path: string, walk: Walk): string[] {
  if (path === '' || walk.ctx.written.size === 0) return [];
  const stream = walk.ctx.written.get(normalizePath(path, walk.ctx.cwd));
  return (stream?.files ?? []).filter((f) => sensitiveFileKind(f) !== undefined);
}

/** Secret files among `texts`, as named or as copies made earlier. */
function secretSources(texts: readonly string[], walk: Walk): string[] {
  return texts.flatMap((t) => (sensitiveFileKind(t) !== undefined ? [t] : carriedSecrets(t, walk)));
}

/**
 * A word that names a file (`/tmp/x`, `@/tmp/x`, `f=@/tmp/x;type=text/plain`, `<x`,
 * `--post-file=/tmp/x`) with a copy
 * of a secret file named by that file, so the upload is judged as what it sends.
 */
export function unlaundered(text: string, walk: Walk): string {
  if (walk.ctx.written.size === 0) return text;
  const at = Math.max(text.lastIndexOf('@'), text.lastIndexOf('<'), text.lastIndexOf('='));
  const head = at >= 0 ? text.slice(0, at + 1) : '';
  let path = at >= 0 ? text.slice(at + 1) : text;
  const semi = path.indexOf(';');
  const tail = semi >= 0 ? path.slice(semi) : '';
  if (semi >= 0) path = path.slice(0, semi);
  const [secret] = carriedSecrets(path, walk);
  return secret === undefined ? text : `${head}${secret}${tail}`;
}

/** Where tar, zip and 7z write an archive, and what they put in it. */
function archiveOf(name: string, texts: readonly string[]): { out: string; sources: string[] } | undefined {
  if (name === 'zip') {
    const operands = texts.filter((t) => !t.startsWith('-'));
    return operands.length >= 2 ? { out: operands[0]!, sources: operands.slice(1) } : undefined;
  }
  if (name === '7z' || name === '7za' || name === '7zz') {
    const operands = texts.filter((t) => !t.startsWith('-'));
    return operands[0] === 'a' && operands.length >= 3
      ? { out: operands[1]!, sources: operands.slice(2) }
      : undefined;
  }
  if (name !== 'tar' && name !== 'bsdtar') return undefined;
  let out: string | undefined;
  let create = false;
  const sources: string[] = [];
  for (let i = 0; i < texts.length; i++) {
    const t = texts[i]!;
    if (t === '--create') create = true;
    else if (t.startsWith('--file=')) out = t.slice(7);
    else if (t === '--file' || t === '-f') out = texts[++i];
    else if (/^-?[A-Za-z]+$/.test(t) && (i === 0 || t.startsWith('-')) && !t.startsWith('--')) {
      // `czf out.tgz`, `-cvzf out.tgz`: bundled letters, the archive after an f.
      if (/c/.test(t)) create = true;
      if (t.endsWith('f')) out = texts[++i];
    } else if (!t.startsWith('-')) sources.push(t);
  }
  return create && out !== undefined ? { out, sources } : undefined;
}

/** `cp .env /tmp/x`, `mv`, `install`, `ln`, and archives that hold a secret file: remember what the copy holds. */
export function rememberSecretCopies(name: string, args: Field[], walk: Walk): void {
  if (args.some((a) => a.dynamic)) return;
  const texts = args.map((a) => a.text);
  let target: string | undefined;
  let sources: string[] = [];
  if (/^(?:cp|mv|install|ln|rsync)$/.test(name)) {
    const operands = texts.filter((t) => !t.startsWith('-'));
    if (operands.length < 2) return;
    target = operands[operands.length - 1]!;
    // `rsync .env host:` is an upload, judged as one; only a local copy is remembered.
    if (name === 'rsync' && /^[^/]*:/.test(target)) return;
    sources = operands.slice(0, -1);
  } else if (name === 'dd') {
    target = texts.find((t) => t.startsWith('of='))?.slice(3);
    const source = texts.find((t) => t.startsWith('if='))?.slice(3);
    sources = source === undefined ? [] : [source];
  } else if (name === 'openssl' || name === 'gpg' || name === 'gpg2' || name === 'age') {
    // `openssl enc -in .env -out x`, `gpg -c -o x .env`, `age -r key -o x .env`: the file encrypted.
    const value = (flags: RegExp) => {
      const at = texts.findIndex((t) => flags.test(t));
      return at < 0 ? undefined : texts[at + 1];
    };
    target = name === 'openssl' ? value(/^-out$/) : value(/^(?:-o|--output)$/);
    const source = name === 'openssl' ? value(/^-in$/) : texts[texts.length - 1];
    sources = source === undefined || source === target ? [] : [source];
  } else {
    const archive = archiveOf(name, texts);
    if (archive === undefined) return;
    target = archive.out;
    sources = archive.sources;
  }
  const secrets = secretSources(sources, walk);
  if (target !== undefined && secrets.length > 0)
    remember(walk, target, { unknown: `a copy of ${secrets.join(' ')}`, files: secrets });
}

/** What a file written earlier in the command line holds, when it was. */
export function writtenFile(path: Field | undefined, walk: Walk): Stream | undefined {
  if (path === undefined || path.dynamic || path.text === '' || walk.ctx.written.size === 0) return undefined;
  return walk.ctx.written.get(normalizePath(path.text, walk.ctx.cwd));
}

/**
 * What a program prints may carry the secrets it read: `uuencode .env x`, `perl -ne … .env`,
 * `jq . .env.json`. A downstream upload or mail sees those files.
 */
export function withSensitiveOperands(stream: Stream, texts: readonly string[]): Stream {
  const files = texts.filter((t) => !t.startsWith('-') && sensitiveFileKind(t) !== undefined);
  return files.length === 0 ? stream : { ...stream, files: [...(stream.files ?? []), ...files] };
}

/** `base64 -d p`, `sed 's/x//' f`: a filter whose input is a file written earlier in the command. */
export function filterWrittenFile(name: string, args: Field[], walk: Walk): string | undefined {
  if (walk.ctx.written.size === 0 || args.length === 0) return undefined;
  const last = args[args.length - 1]!;
  if (last.text.startsWith('-')) return undefined;
  const content = writtenFile(last, walk);
  if (content?.literal === undefined) return undefined;
  return applyFilter(
    name,
    args.slice(0, -1).map((a) => a.text),
    content.literal,
  );
}

export function rememberLink(args: Field[], walk: Walk): void {
  const operands = args.filter((a) => !a.text.startsWith('-'));
  if (operands.length !== 2 || operands.some((a) => a.dynamic) || walk.ctx.links.size >= MAX_WRITTEN_FILES)
    return;
  walk.ctx.links.set(
    normalizePath(operands[1]!.text, walk.ctx.cwd).replace(/\/+$/, ''),
    normalizePath(operands[0]!.text, walk.ctx.cwd).replace(/\/+$/, '') || '/',
  );
}
