import type { SqlToken } from '../sql-lexer.ts';

// T-SQL needs no semicolons (`IF … DROP TABLE t`, `BEGIN … END`), nor do procedure bodies: a
// statement keyword starts a new statement. This cuts a semicolon-delimited piece of a batch
// there, so the lexical fallback judges each statement by its own keywords.

const CONTROL = new Set([
  'IF',
  'ELSE',
  'BEGIN',
  'END',
  'WHILE',
  'GO',
  'BREAK',
  'CONTINUE',
  'THEN',
  'LOOP',
  'REPEAT',
]);
const SCHEMA_LEADERS = new Set(['DROP', 'TRUNCATE', 'CREATE', 'ALTER', 'GRANT', 'REVOKE', 'DENY']);
const DML_LEADERS = new Set(['DELETE', 'UPDATE', 'INSERT', 'MERGE']);
const OTHER_LEADERS = new Set([
  'EXEC',
  'EXECUTE',
  'PREPARE',
  'DEALLOCATE',
  'DECLARE',
  'PRINT',
  'CALL',
  'LOAD',
  'BULK',
  'ATTACH',
  'COPY',
  'DO',
  'VACUUM',
  'BACKUP',
  'RESTORE',
  'INSTALL',
  'UNINSTALL',
]);
/** Words after which DELETE / UPDATE / INSERT name an event or a privilege, not a statement. */
const NOT_A_STATEMENT_AFTER = new Set([
  'ON',
  'FOR',
  'OF',
  'BEFORE',
  'AFTER',
  'OR',
  'INSTEAD',
  'KEY',
  'BULK',
  'GRANT',
  'REVOKE',
  'DENY',
  'IGNORE',
]);
/** Words after which `IF(` is MySQL's function, not a statement. */
const EXPRESSION_CONTEXT = new Set([
  'SELECT',
  'WHERE',
  'AND',
  'OR',
  'NOT',
  'ON',
  'SET',
  'BY',
  'WHEN',
  'THEN',
  'ELSE',
  'RETURN',
  'VALUES',
  'HAVING',
  'DISTINCT',
  'AS',
]);
const PRIVILEGE_LEADERS = new Set(['GRANT', 'REVOKE', 'DENY']);
const SET_CONTEXT = new Set([
  ...CONTROL,
  'DECLARE',
  'SET',
  'EXEC',
  'EXECUTE',
  'PRINT',
  'PREPARE',
  'DEALLOCATE',
]);

function startsStatement(tokens: readonly SqlToken[], i: number, segment: readonly SqlToken[]): boolean {
  // `segment` holds the current statement's first token, enough to know what it is.
  const token = tokens[i]!;
  const word = token.value;
  const prev = tokens[i - 1];
  const next = tokens[i + 1];
  const leader = segment[0]?.kind === 'word' ? segment[0].value : '';
  const afterSeparator = prev === undefined || prev.kind === ',' || prev.kind === 'op';
  // `SELECT 1 AS delete`: an alias. After AS only a routine, view or trigger body starts.
  if (prev?.kind === 'word' && prev.value === 'AS' && leader !== 'CREATE' && leader !== 'ALTER') return false;
  if (word === 'IF') {
    if (
      next?.kind === 'word' &&
      (next.value === 'EXISTS' || next.value === 'NOT') &&
      SCHEMA_LEADERS.has(leader)
    )
      return false;
    if (
      next?.kind === '(' &&
      prev !== undefined &&
      (afterSeparator || prev.kind === '(' || EXPRESSION_CONTEXT.has(prev.value))
    )
      return false;
    return true;
  }
  if (CONTROL.has(word)) return word !== 'THEN' && word !== 'LOOP' && word !== 'REPEAT';
  if (afterSeparator && prev !== undefined) return false;
  if (SCHEMA_LEADERS.has(word)) {
    if (PRIVILEGE_LEADERS.has(leader)) return false;
    if (word !== 'CREATE' && word !== 'TRUNCATE' && leader === 'ALTER') return false;
    return !(prev?.kind === 'word' && (prev.value === 'OR' || prev.value === 'ON'));
  }
  if (DML_LEADERS.has(word)) {
    if (PRIVILEGE_LEADERS.has(leader)) return false;
    return !(prev?.kind === 'word' && NOT_A_STATEMENT_AFTER.has(prev.value));
  }
  if (word === 'EXEC' || word === 'EXECUTE') return !PRIVILEGE_LEADERS.has(leader) && prev?.value !== 'AS';
  if (word === 'SET') return SET_CONTEXT.has(leader);
  return OTHER_LEADERS.has(word) && !PRIVILEGE_LEADERS.has(leader);
}

const BOUNDARY_CANDIDATES = new Set([...CONTROL, ...SCHEMA_LEADERS, ...DML_LEADERS, ...OTHER_LEADERS, 'SET']);

/** Cuts one semicolon-delimited statement into the statements T-SQL and procedure bodies run. */
export function segmentStatement(tokens: SqlToken[]): SqlToken[][] {
  const segments: SqlToken[][] = [];
  let from = 0;
  let depth = 0;
  let caseDepth = 0;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.kind === '(') depth++;
    else if (token.kind === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0 && token.kind === 'word' && i > from) {
      const word = token.value;
      if (word === 'CASE') caseDepth++;
      else if (word === 'END' && caseDepth > 0) caseDepth--;
      else if (
        BOUNDARY_CANDIDATES.has(word) &&
        !(word === 'ELSE' && caseDepth > 0) &&
        startsStatement(tokens, i, tokens.slice(from, from + 1))
      ) {
        segments.push(tokens.slice(from, i));
        from = i;
      }
    } else if (depth === 0 && token.kind === 'word' && token.value === 'CASE') caseDepth++;
  }
  segments.push(from === 0 ? tokens : tokens.slice(from));
  return segments;
}
