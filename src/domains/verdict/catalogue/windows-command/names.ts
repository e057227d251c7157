/**
 * Program names and Windows path spellings: which words name a shell, a cmd built-in or a
 * Windows tool, and the separators a POSIX reading of a Windows path dropped.
 */

export const SHELLS = new Set(['powershell', 'pwsh', 'cmd']);

/** cmd built-ins and Windows tools whose words are read with cmd's grammar when run directly. */
export const CMD_PROGRAMS = new Set([
  'rd',
  'rmdir',
  'del',
  'erase',
  'format',
  'vssadmin',
  'wmic',
  'wbadmin',
  'bcdedit',
  'cipher',
  'diskpart',
  'reg',
  'takeown',
  'icacls',
  'cacls',
  'netsh',
  'wevtutil',
  'schtasks',
  'fsutil',
  'attrib',
  'sc',
  'type',
  'copy',
  'xcopy',
  'robocopy',
  'move',
  'dir',
  'psexec',
  'psexec64',
  'paexec',
]);

/** Programs whose name is shared with a POSIX tool: Windows only when the words say so. */
export const SHARED_NAMES = new Set(['rmdir', 'format', 'type', 'sc', 'attrib', 'move', 'copy', 'dir']);

/** `C:\Windows\System32\CMD.EXE`, `"pwsh.exe"` → `cmd`, `pwsh`. */
export function windowsProgramName(word: string): string {
  // Most names are plain words: nothing for restoreSeparators to put back.
  const bare = word.replace(/^["']|["']$/g, '');
  const trimmed = /[\\:%$]/.test(bare) ? restoreSeparators(bare) : bare;
  const slash = Math.max(trimmed.lastIndexOf('\\'), trimmed.lastIndexOf('/'));
  return trimmed
    .slice(slash + 1)
    .toLowerCase()
    .replace(/\.(?:exe|com)$/, '');
}

export const WINDOWS_PATH = /^[A-Za-z]:|\\|%[A-Za-z_][\w()]*%|^\$env:/i;

/** Windows directory names, to put back the separators a POSIX reading of `C:\Windows\System32` drops. */
const KNOWN_COMPONENTS = [
  'Windows',
  'System32',
  'SysWOW64',
  'WinSxS',
  'config',
  'drivers',
  'etc',
  'Temp',
  'Users',
  'Public',
  'Default',
  'Administrator',
  'Program Files (x86)',
  'Program Files',
  'ProgramData',
  'AppData',
  'Roaming',
  'LocalLow',
  'Local',
  'Microsoft',
  'Credentials',
  'Protect',
  'Vault',
  'Crypto',
  'NTDS',
  'repair',
  'Recovery',
  'Boot',
  'SAM',
  'SYSTEM',
  'SECURITY',
  'SOFTWARE',
];
const KNOWN_COMPONENT = new RegExp(
  `^(?:${KNOWN_COMPONENTS.map((c) => c.replace(/[()]/g, '\\$&')).join('|')})`,
  'i',
);
/** Environment variables PowerShell names as `$env:Name`, which a POSIX reading of `"$env:Name"` leaves as `:Name`. */
const ENV_NAMES =
  /(^|[\s"'(,=])(?<!\$env):(SystemRoot|windir|SystemDrive|USERPROFILE|HOMEDRIVE|HOMEPATH|APPDATA|LOCALAPPDATA|ProgramData|ProgramFiles|ALLUSERSPROFILE|PUBLIC|TEMP|TMP)\b/gi;

/** `$_.FullName` with `$_` expanded away by a POSIX reading of a double-quoted script. */
const PIPELINE_ITEM = /(^|[\s(,{])\.(FullName|PSPath|PSChildName|PSParentPath)\b/g;

/**
 * Undoes what a POSIX reading does to a Windows word: `C:\Windows\System32` arrives as
 * `C:WindowsSystem32`, `%SystemRoot%\*` as `%SystemRoot%*`, `"$env:USERPROFILE"` as `:USERPROFILE`.
 * A word that still holds a backslash was quoted and is kept; separators are put back after a
 * drive or a variable and between well-known Windows directory names.
 */
export function restoreSeparators(word: string): string {
  // `\\?\C:\…` halved to `\?\C:\…` inside double quotes; `C:\ -Recurse` (an escaped space) to `C: -Recurse`.
  const text = word
    .replace(ENV_NAMES, '$1$$env:$2')
    .replace(PIPELINE_ITEM, '$1$$_.$2')
    .replace(/(^|[\s'"(=,])\\([?.])\\/g, '$1\\\\$2\\')
    .replace(/^([A-Za-z]:)(?=\s)/, '$1\\');
  // `\\host\C$\Users` arrives as `\hostC$Users`: an administrative share is recognisable by its `$`.
  const share = /^\\([^\\\s]+?)(ADMIN\$|IPC\$|[A-Za-z]\$)(.*)$/i.exec(text);
  if (share)
    return `\\\\${share[1]}\\${share[2]}${share[3] ? `\\${restoreSeparators(`C:${share[3]}`).slice(3)}` : ''}`;
  if (text.includes('\\')) return text;
  const head = /^([A-Za-z]:|%[A-Za-z_][\w()]*%)(?=[^\s/:%])/.exec(text);
  if (!head) return text;
  let rest = text.slice(head[0].length);
  const parts: string[] = [];
  for (let guard = 0; guard < 16; guard++) {
    const match = KNOWN_COMPONENT.exec(rest);
    if (!match) break;
    parts.push(match[0]);
    rest = rest.slice(match[0].length);
  }
  if (rest !== '') parts.push(rest);
  return `${head[0]}\\${parts.join('\\')}`;
}

/**
 * Joins a word back into a command line: quoted when it holds a space that was not escaped. A POSIX
 * reading glues `C:\ -Force` or `C:\Users\ -Recurse` into one word (the backslash escapes the
 * space); for cmd and PowerShell the backslash is a path separator, so those are two words again. A
 * word with a space before its first escaped one was quoted (`"-c Remove-Item C:\ -Recurse"`).
 */
export function requote(quote: string): (word: string) => string {
  return (word) => {
    if (!/\s/.test(word) || /^\S*\\\s/.test(word) || word.includes(quote)) return word;
    return `${quote}${word}${quote}`;
  };
}
