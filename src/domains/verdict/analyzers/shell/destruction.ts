import { isCatastrophicDeleteTarget, normalizePath } from '../paths.ts';
import { followLinks } from './named-paths.ts';
import {
  baseName,
  child,
  describeTarget,
  destructive,
  type Field,
  MAX_ITEMS,
  type ShellContext,
  type Stream,
  type Walk,
} from './state.ts';

/**
 * Commands that destroy what a path names: recursive deletes, moves of a root or a home,
 * rsync --delete, find -delete, recursive ownership changes.
 */

function isRecursiveFlag(text: string): boolean {
  // GNU tools take any unambiguous prefix of a long option: `--rec` is `--recursive`.
  return (
    (text.length >= 5 && '--recursive'.startsWith(text)) || (/^-[A-Za-z]+$/.test(text) && /[rR]/.test(text))
  );
}

export function wipeTarget(word: Field, ctx: ShellContext): boolean {
  const target = word.text.trim();
  if (target === '') return false;
  if (target === '~' || target === '~/' || (target.startsWith('~') && !target.includes('/', 1))) return true;
  // A glob removes what the directory before it holds: `/*`, `~/.*`, `*` in the working tree.
  const normalized = followLinks(normalizePath(target, ctx.cwd), ctx);
  const parts = normalized.split('/');
  const glob = parts.findIndex((part) => /[*?[]/.test(part));
  const removed = glob < 0 ? normalized : parts.slice(0, glob).join('/') || '/';
  // A relative path lands in the working directory, which is itself a wipe target, as is every parent.
  return (
    isCatastrophicDeleteTarget(removed, ctx.paths) ||
    (ctx.configured !== ctx.paths && isCatastrophicDeleteTarget(removed, ctx.configured))
  );
}

export function judgeRm(name: string, args: Field[], walk: Walk): void {
  // rmdir removes only empty directories, but `rmdir -p` and rimraf take a whole tree.
  let recursive = name !== 'rm';
  const targets: Field[] = [];
  let options = true;
  for (const arg of args) {
    if (options && arg.text === '--') options = false;
    else if (options && arg.text.startsWith('-') && arg.text.length > 1)
      recursive ||= isRecursiveFlag(arg.text);
    else targets.push(arg);
  }
  if (!recursive && name === 'rm') return;
  // `cd / && rm -rf $(ls)`: names computed at run time, relative to a directory that must not be
  // emptied (a root, a home, a system directory; not the working tree, whose files agents clean).
  const cwd = walk.ctx.cwd.workspace;
  const unsafeCwd = cwd !== walk.ctx.paths.workspace && isCatastrophicDeleteTarget(cwd, walk.ctx.paths);
  for (const target of targets) {
    if (unsafeCwd && target.dynamic && !/^[/~]/.test(target.text)) {
      destructive(
        walk,
        `recursive ${name} of names computed at run time in ${describeTarget(cwd)}`,
        `command "${name}"`,
      );
      return;
    }
    if (wipeTarget(target, walk.ctx)) {
      destructive(walk, `recursive ${name} of ${describeTarget(target.text)}`, `command "${name}"`);
      return;
    }
    if (/(?:^|\/)\.git\/?$/.test(target.text) && name === 'rm') {
      destructive(
        walk,
        `recursive rm of a repository's history (${describeTarget(target.text)})`,
        'command "rm"',
      );
      return;
    }
  }
}

/** `mv / …`, `mv ~ /dev/null`: moving the root, a home or a system directory away. */
export function judgeMove(args: Field[], walk: Walk): void {
  const operands = args.filter((a) => !a.text.startsWith('-'));
  for (const source of operands.slice(0, -1)) {
    const normalized = normalizePath(source.text, walk.ctx.cwd);
    const parts = normalized.split('/').filter((p) => p !== '');
    if (
      source.text.trim() !== '' &&
      parts.length <= 2 &&
      isCatastrophicDeleteTarget(normalized, walk.ctx.paths)
    ) {
      destructive(walk, `mv takes ${describeTarget(normalized)} away`, 'command "mv"');
      return;
    }
  }
}

/** `rsync --delete empty/ /`: mirrors nothing onto a root, deleting everything there. */
export function judgeRsyncDelete(args: Field[], walk: Walk): void {
  if (!args.some((a) => a.text.startsWith('--delete') || a.text === '--remove-source-files')) return;
  const operands = args.filter((a) => !a.text.startsWith('-'));
  const destination = operands[operands.length - 1];
  if (!destination || operands.length < 2 || /^[^/]*:/.test(destination.text)) return;
  if (wipeTarget(destination, walk.ctx)) {
    destructive(walk, `rsync --delete empties ${describeTarget(destination.text)}`, 'command "rsync"');
  }
}

const FIND_NARROWING = new Set([
  '-name',
  '-iname',
  '-path',
  '-ipath',
  '-wholename',
  '-iwholename',
  '-regex',
  '-iregex',
  '-newer',
  '-mtime',
  '-mmin',
  '-atime',
  '-amin',
  '-ctime',
  '-cmin',
  '-size',
  '-user',
  '-group',
  '-perm',
  '-empty',
  '-inum',
  '-links',
  '-samefile',
  '-uid',
  '-gid',
  '-lname',
  '-ilname',
  '-newermt',
]);

/**
 * Where credential stores sit below a search root: a `find -name` glob that matches one of these
 * names (`id_*`, `*credentials*`, `.env*`) can hand it to the `-exec` command.
 */
const STORES_BELOW_A_ROOT = [
  '.ssh/id_rsa',
  '.ssh/id_ed25519',
  '.ssh/id_ecdsa',
  '.aws/credentials',
  '.docker/config.json',
  '.kube/config',
  '.netrc',
  '.pgpass',
  '.git-credentials',
  '.env',
];

/** `find -name` globs as anchored regular expressions: `*`, `?` and plain characters only. */
function globMatches(glob: string, name: string): boolean {
  if (glob.length > 128 || /[[\\]/.test(glob)) return false;
  const pattern = glob
    .replace(/[.+^${}()|]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${pattern}$`, 'i').test(name);
}

/** Credential stores under the roots that the name globs of a find would match. */
function storesMatching(globs: readonly string[], roots: readonly Field[]): Field[] {
  if (globs.length === 0) return [];
  const stores = STORES_BELOW_A_ROOT.filter((store) => {
    const base = store.slice(store.lastIndexOf('/') + 1);
    return globs.some((glob) => globMatches(glob, base));
  });
  return roots.flatMap((root) =>
    stores.map((store) => ({ ...root, text: `${root.text.replace(/\/+$/, '')}/${store}` })),
  );
}

export function judgeFind(args: Field[], walk: Walk): Stream {
  const roots: Field[] = [];
  let i = 0;
  while (i < args.length && /^-[HLP]$/.test(args[i]!.text)) i++;
  while (
    i < args.length &&
    !args[i]!.text.startsWith('-') &&
    args[i]!.text !== '(' &&
    args[i]!.text !== '!'
  ) {
    roots.push(args[i]!);
    i++;
  }
  const rest = args.slice(i);
  const texts = rest.map((w) => w.text);
  // `-name '*'` matches everything: it narrows nothing.
  const narrowed = texts.some((t, k) => FIND_NARROWING.has(t) && !/^\*+$/.test(texts[k + 1] ?? ''));
  const effectiveRoots = roots.length === 0 ? [{ text: '.', dynamic: false }] : roots;
  const wipesRoot = effectiveRoots.some((root) => wipeTarget(root, walk.ctx));
  const execDeletes = texts.some(
    (t, k) =>
      /^-(?:exec|execdir|ok|okdir)$/.test(t) && /^(?:rm|shred|unlink)$/.test(baseName(texts[k + 1] ?? '')),
  );
  if ((texts.includes('-delete') || execDeletes) && !narrowed && wipesRoot) {
    destructive(walk, 'find deletes everything under a root, home or system directory', 'command "find"');
  }
  // `find / -exec chown x {} +` changes every file under the root, as `chown -R x /` does.
  const execOwns = texts.some(
    (t, k) =>
      /^-(?:exec|execdir|ok|okdir)$/.test(t) && /^(?:chown|chmod|chgrp)$/.test(baseName(texts[k + 1] ?? '')),
  );
  if (execOwns && !narrowed && wipesRoot) {
    destructive(
      walk,
      'find changes the owner or mode of everything under a root, home or system directory',
      'command "find"',
    );
  }
  // -exec / -execdir / -ok / -okdir run a command per match: judge it with the roots as matches.
  for (let k = 0; k < texts.length; k++) {
    if (!/^-(?:exec|execdir|ok|okdir)$/.test(texts[k]!)) continue;
    let end = k + 1;
    while (end < texts.length && texts[end] !== ';' && texts[end] !== '+') end++;
    const command = rest.slice(k + 1, end);
    const inner = child(walk);
    if (!inner || command.length === 0) continue;
    // `-name .git` with a literal name: what matches is that name under the roots.
    const named = texts.flatMap((t, n) => (/^-i?name$/.test(t) ? [texts[n + 1] ?? ''] : []));
    const literal =
      named.length === 1 && !texts.includes('-o') && /^[^*?[\]/]+$/.test(named[0]!) ? named[0] : undefined;
    const matches = !narrowed
      ? effectiveRoots
      : literal !== undefined
        ? [
            ...effectiveRoots.map((root) => ({
              ...root,
              text: `${root.text.replace(/\/+$/, '')}/${literal}`,
            })),
            ...storesMatching(named, effectiveRoots),
          ]
        : [{ text: 'matched-file', dynamic: false }, ...storesMatching(named, effectiveRoots)];
    for (const match of matches.slice(0, MAX_ITEMS)) {
      walk.run.command(
        command.map((a) =>
          a.text.includes('{}') ? { ...a, text: a.text.split('{}').join(match.text), via: 'find -exec' } : a,
        ),
        inner,
      );
    }
    k = end;
  }
  return { found: { roots: effectiveRoots, narrowed } };
}

export function judgeRecursiveOwnership(name: string, args: Field[], walk: Walk): void {
  if (
    !args.some((a) => isRecursiveFlag(a.text) && !/[^-rRvfchHLP]/.test(a.text.replace('--recursive', '-R')))
  )
    return;
  const operands = args.filter((a) => !a.text.startsWith('-'));
  for (const target of operands.slice(1)) {
    const text = target.text.replace(/\/\*$/, '/');
    if (!text.startsWith('/')) continue;
    const normalized = normalizePath(text, walk.ctx.cwd);
    const parts = normalized.split('/').filter((p) => p !== '');
    if (
      parts.length === 0 ||
      (parts.length === 1 && isCatastrophicDeleteTarget(normalized, walk.ctx.paths))
    ) {
      destructive(walk, `recursive ${name} of ${describeTarget(normalized)}`, `command "${name}"`);
      return;
    }
  }
}
