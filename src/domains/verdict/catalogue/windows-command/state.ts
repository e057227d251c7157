import type { PathContext } from '../../analyzers/paths.ts';
import type { Finding } from '../../codes.ts';

/**
 * What reading a Windows command line gathers (commands, findings, web requests), how deep it
 * may go, and how a finding is recorded.
 */

/** One request a web cmdlet would send: where, how, and what it sends. */
export interface WebRequest {
  cmdlet: string;
  url: string;
  method: string;
  /** `-InFile`, or the file `Get-Content` pipes in. */
  file?: string;
  /** `-Body` when it is a literal. */
  body?: string;
}

/** How deep shells inside shells (`powershell -c "cmd /c …"`) are read. */
export const MAX_DEPTH = 6;

export interface State {
  commands: string[][];
  findings: Finding[];
  depth: number;
  paths: PathContext;
  /** What the shell knows the command reads on standard input, if anything. */
  stdin?: string;
  /** `Set-Alias name value` seen so far in the script. */
  aliases: Map<string, string>;
  requests: WebRequest[];
  /**
   * The readers of the three grammars, so that a shell inside a shell reads its line without the
   * reader modules importing one another (windows-command.ts wires them).
   */
  read: Readers;
}

export interface Readers {
  cmdLine(line: string, state: State): void;
  native(words: readonly string[], state: State): void;
  powershell(script: string, state: State): void;
}

export function nestedState(state: State): State {
  return { ...state, depth: state.depth + 1 };
}

// ---------------------------------------------------------------------------- findings

export function describe(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

export function destructive(state: State, message: string, location: string): void {
  state.findings.push({ code: 'DEST_MUTATION', message, location });
}

/** Past a budget the command is refused, never let through unread (the shell's wording). */
export function overBudget(state: State, what: string): void {
  if (state.findings.some((finding) => finding.message.includes('analysis budget'))) return;
  state.findings.push({
    code: 'POLICY_VIOLATION',
    message: `the command is too complex to resolve within the analysis budget (${what})`,
    location: 'Windows command line',
  });
}

/** Code that would run but cannot be read: refused, in the shell's words and location. */
export function opaque(state: State, what: string): void {
  state.findings.push({
    code: 'POLICY_VIOLATION',
    message: `cannot tell what would run: ${what}; opaque code is refused unless the account allows it (PUT /v1/settings/execution)`,
    location: 'opaque code',
  });
}
