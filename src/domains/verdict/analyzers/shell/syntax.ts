import sh, { type ShNode } from 'mvdan-sh';

/**
 * The mvdan/sh syntax tree as the walk reads it: the parser, node helpers and operator codes.
 */

// mvdan/sh is the parser behind shfmt. Its GopherJS build (`mvdan-sh`) is synchronous and
// returns the full syntax tree; the WASM build (`sh-syntax`) instantiates a fresh module per
// call (~9 ms) and serialises commands without their words, so it cannot be walked.
const { syntax } = sh;

export const parser = syntax.NewParser();

export const splitBraces = (syntax as unknown as { SplitBraces(word: ShNode): ShNode }).SplitBraces;

// Redirection operators of mvdan.cc/sh/v3/syntax.RedirOperator.
export const REDIR_OUT = new Set([54, 55, 59, 60, 64, 65]);

export const REDIR_IN = 56;

/** `=~` in `[[ … ]]`. */
export const TEST_REMATCH = 112;

/** `<&N`: standard input from descriptor N. */
export const REDIR_DUP_IN = 58;

export const REDIR_HEREDOC = new Set([61, 62]);

export const REDIR_HERESTRING = 63;

export const PIPE_OPS = new Set([12, 13]);

// Parameter expansion operators (syntax.ParExpOperator).
export const PAR = {
  altUnset: 68,
  alt: 69,
  defUnset: 70,
  def: 71,
  errUnset: 72,
  err: 73,
  assignUnset: 74,
  assign: 75,
  shortSuffix: 76,
  longSuffix: 77,
  shortPrefix: 78,
  longPrefix: 79,
  upperFirst: 80,
  upperAll: 81,
  lowerFirst: 82,
  lowerAll: 83,
  transform: 84,
};

export function nodeType(node: unknown): string {
  return node ? syntax.NodeType(node as ShNode) : '';
}

export function list(value: unknown): ShNode[] {
  return Array.isArray(value) ? (value as ShNode[]) : [];
}

export function litValue(node: unknown): string {
  return String((node as ShNode | undefined)?.['Value'] ?? '');
}
