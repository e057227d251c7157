import {
  classifyPath,
  DEFAULT_PATH_CONTEXT,
  isCatastrophicDeleteTarget,
  normalizePath,
  type PathContext,
} from '../../analyzers/paths.ts';
import type { PsWord } from '../windows-powershell.ts';
import { describe, destructive, type State } from './state.ts';

/**
 * Paths a Windows command names, judged by the path rules: privileged paths, and recursive
 * deletes or ownership changes of a root, a system directory, a home or the working tree.
 */

/** Candidates for a path: a drive, a separator, `~`, `.\`, a Windows variable. */
const PATH_LIKE = /^[A-Za-z]:|[\\/]|^~|%[A-Za-z_][\w()]*%|\$env:/i;

export function judgePathWord(word: PsWord, state: State): void {
  if (!word.literal && !word.text.includes('$env:')) return;
  if (word.bare && /^-/.test(word.text)) {
    const colon = word.text.indexOf(':');
    if (colon > 0) judgePath(word.text.slice(colon + 1), state, false);
    return;
  }
  for (const item of word.items.length > 0 ? word.items : [word.text]) judgePath(item, state, false);
}

function stripProvider(path: string): string {
  return path.replace(/^(?:Microsoft\.PowerShell\.Core\\)?FileSystem::/i, '');
}

export function judgePath(raw: string, state: State, writes: boolean): void {
  const text = stripProvider(raw.trim());
  if (text === '' || text.length > 4096 || text.includes('://') || !PATH_LIKE.test(text)) return;
  if (/^(?:HK[A-Z]{1,3}|HKEY_[A-Z_]+):?\\/i.test(text)) return;
  const cls = classifyPath(normalizePath(text, state.paths));
  if (cls === null) return;
  state.findings.push({
    code: 'FILESYSTEM_DENIED',
    message: `${writes ? 'writes to' : 'touches'} a ${cls === 'secret' ? 'credential or identity file' : 'protected system path'}`,
    location: `path ${describe(text)}`,
  });
}

/** `.`, `..`, `*`, `.\*`: the working tree itself. */
const WORKING_TREE = /^(?:\.{1,2}[\\/]?|(?:\.{1,2}[\\/])?\*(?:\.\*)?)$/;

/** Whether removing `target` and everything under it wipes a root, a system tree, a home or the working tree. */
export function deletesEverything(target: string, paths: PathContext = DEFAULT_PATH_CONTEXT): boolean {
  let text = stripProvider(target.trim());
  if (text === '') return false;
  if (WORKING_TREE.test(text)) return true;
  // `C:` alone is the current directory of drive C.
  if (/^[A-Za-z]:$/.test(text)) return true;
  text = text.replace(/[\\/]\*(?:\.\*)?$/, '\\');
  return isCatastrophicDeleteTarget(normalizePath(text, paths), paths);
}

export function judgeDeleteTarget(target: string, state: State, how: string): void {
  if (!deletesEverything(target, state.paths)) return;
  destructive(
    state,
    `${how} of ${describe(target)}: a drive root, a system directory, a home or the working tree`,
    `command "${how}"`,
  );
}

/** `takeown /r /f C:\`, `icacls C:\ /grant Everyone:F /t`: every file's owner or ACL below a root. */
export function judgeRecursiveOwnership(target: string | undefined, state: State, how: string): void {
  if (target === undefined) return;
  const text = target.replace(/[\\/]\*(?:\.\*)?$/, '\\');
  if (/^[A-Za-z]:\\?$/.test(text) || deletesEverything(text, state.paths)) {
    destructive(
      state,
      `${how} changes ownership or permissions of everything under ${describe(target)}`,
      `command "${how}"`,
    );
  }
}
