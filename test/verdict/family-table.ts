import { expect, it } from 'vitest';
import {
  type CatalogueContext,
  DEFAULT_CATALOGUE_CONTEXT,
  EMPTY_PROTECTED_RESOURCES,
  judgeArgv,
  type ProtectedResources,
} from '../../src/domains/verdict/catalogue/index.ts';
import type { VerdictCode } from '../../src/domains/verdict/codes.ts';
import { evaluateAction } from '../../src/domains/verdict/engine.ts';

/** A command as an agent would send it, and the code it must get (null: safe). */
export type Case = [command: string, code: VerdictCode | null];

/** Splits on blanks outside quotes and drops the quotes, as a shell would (no escapes: table input only). */
export function words(command: string): string[] {
  const out: string[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  for (const ch of command) {
    if (quote !== undefined) {
      if (ch === quote) quote = undefined;
      else word += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      word ??= '';
    } else if (/\s/.test(ch)) {
      if (word !== undefined) out.push(word);
      word = undefined;
    } else word = (word ?? '') + ch;
  }
  if (word !== undefined) out.push(word);
  return out;
}

export function contextWith(protectedResources: Partial<ProtectedResources>): CatalogueContext {
  return { protected: { ...EMPTY_PROTECTED_RESOURCES, ...protectedResources }, accountRules: [] };
}

function topCode(codes: readonly VerdictCode[]): VerdictCode | null {
  const order: VerdictCode[] = [
    'FILESYSTEM_DENIED',
    'DEST_MUTATION',
    'POLICY_VIOLATION',
    'EXFILTRATION_BLOCKED',
  ];
  for (const code of order) if (codes.includes(code)) return code;
  return null;
}

/** Pipes, substitutions, input redirections, wrappers, nested shells and assignments: only the shell can resolve those. */
const SHELL_SYNTAX = /[|;&$`()<]|^(?:sudo|env|nice|timeout|xargs|bash|sh|zsh|ssh)\s|^[A-Za-z_]\w*=/;

/**
 * Each case twice: the catalogue alone on the command's words (when the command is a plain
 * one), and the whole engine on `shell.exec`, where the shell resolves wrappers and quoting first.
 */
export function familyTable(cases: readonly Case[], ctx: CatalogueContext = DEFAULT_CATALOGUE_CONTEXT): void {
  const plain = cases.filter(([command]) => !SHELL_SYNTAX.test(command));
  it.each(plain)('judgeArgv: %s → %s', (command, code) => {
    const findings = judgeArgv(words(command), ctx);
    expect(topCode(findings.map((f) => f.code)), JSON.stringify(findings)).toBe(code);
  });
  it.each(cases)('shell.exec: %s → %s', (command, code) => {
    const verdict = evaluateAction({ action: 'shell.exec', payload: { command } }, { catalogue: ctx });
    expect(verdict.finding?.code ?? null, JSON.stringify(verdict.findings)).toBe(code);
  });
}
