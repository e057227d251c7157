/**
 * Cypher (Neo4j, Memgraph, AGE) as the catalogue judges it when a CLI carries it (`cypher-shell`):
 * the graph forms of the SQL rules. A `MATCH` whose nodes are then deleted (`DELETE`, `DETACH
 * DELETE`) or rewritten (`SET`, `REMOVE`) with nothing that narrows the match — no `WHERE`, no
 * property map such as `{id: 42}` — reaches every node of the pattern: `MATCH (n) DETACH DELETE n`
 * empties the graph as `DELETE FROM t` with no `WHERE` empties a table. A label alone does not
 * narrow (`MATCH (n:User) DETACH DELETE n` is every user, as a table is every row). Dropping or
 * replacing a database is a drop. Procedures that run Cypher given as text
 * (`apoc.periodic.iterate('MATCH (n) RETURN n', 'DETACH DELETE n', {})`) are read through their
 * string arguments.
 */
export interface CypherFinding {
  code: 'DEST_MUTATION';
  message: string;
}

/** Statements longer than this are not read further (the rest of the text still is, by statement). */
const MAX_TEXT = 256 * 1024;

interface Masked {
  /** The text with comments removed and every string literal replaced by `''`. */
  code: string;
  /** The literals' contents, in order. */
  literals: string[];
}

/** Removes comments and masks string literals, so keywords inside them are not read as clauses. */
function mask(text: string): Masked {
  let code = '';
  const literals: string[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    const next = text[i + 1];
    if (ch === '/' && next === '/') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end;
      continue;
    }
    if (ch === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
      code += ' ';
      continue;
    }
    if (ch === "'" || ch === '"' || ch === '`') {
      let j = i + 1;
      let value = '';
      while (j < text.length && text[j] !== ch) {
        if (text[j] === '\\' && ch !== '`' && j + 1 < text.length) {
          value += text[j + 1];
          j += 2;
          continue;
        }
        value += text[j];
        j++;
      }
      i = j + 1;
      // A back-quoted name is an identifier, not a literal.
      if (ch === '`') code += 'x';
      else {
        literals.push(value);
        code += "''";
      }
      continue;
    }
    code += ch;
    i++;
  }
  return { code, literals };
}

/**
 * A clause keyword, not a name that happens to be spelled like one: not a property (`n.delete`), a
 * label (`:Set`), an alias (`AS delete`) or a map key (`{set: 1}`).
 */
function keyword(words: string, flags = 'i'): RegExp {
  return new RegExp(`(?<![.\\w$:])(?<!\\bAS\\s{1,20})\\b(?:${words})\\b(?!\\s*:)`, flags);
}

const MATCH = keyword('MATCH');
const MATCHES = keyword('MATCH', 'gi');
const WHERES = keyword('WHERE', 'gi');
const DELETE = keyword('DELETE');
const UPDATE = keyword('SET|REMOVE');

/** The clause keywords that end a MATCH pattern. */
const CLAUSE =
  /\b(?:WHERE|WITH|RETURN|DELETE|DETACH|SET|REMOVE|CREATE|MERGE|UNWIND|CALL|FOREACH|ORDER|SKIP|LIMIT|UNION|OPTIONAL|MATCH|USE|LOAD|FINISH)\b/i;

/** `WHERE true`, `WHERE 1 = 1`, `WHERE n IS NOT NULL`: a condition every row meets. */
const TAUTOLOGY =
  /^\s*(?:true|1\s*=\s*1|''\s*=\s*''|not\s+false|[A-Za-z_]\w*\s+is\s+not\s+null)\s*(?:$|\b(?:WITH|RETURN|DELETE|DETACH|SET|REMOVE|CALL|CREATE|MERGE|FOREACH)\b)/i;

/** Whether some condition or property map narrows what the statement's MATCH clauses select. */
function narrowed(code: string): boolean {
  for (const where of code.matchAll(WHERES)) {
    if (!TAUTOLOGY.test(code.slice(where.index + where[0].length))) return true;
  }
  for (const match of code.matchAll(MATCHES)) {
    const rest = code.slice(match.index + match[0].length);
    const end = CLAUSE.exec(rest);
    const pattern = end === null ? rest : rest.slice(0, end.index);
    // `(n:User {id: 42})`, `-[r:KNOWS {since: 2020}]->`, `(n $props)`.
    if (/\{\s*[A-Za-z_`][^}]*:|\(\s*\w*\s*(?::\s*\w+\s*)*\$\w+\s*\)/.test(pattern)) return true;
  }
  return false;
}

function judgeStatement(statement: Masked, out: CypherFinding[], depth: number): void {
  const { code, literals } = statement;
  if (/\bDROP\s+(?:COMPOSITE\s+)?DATABASE\b/i.test(code)) {
    out.push({ code: 'DEST_MUTATION', message: 'DROP DATABASE deletes a whole graph database' });
    return;
  }
  if (/\bCREATE\s+OR\s+REPLACE\s+(?:COMPOSITE\s+)?DATABASE\b/i.test(code)) {
    out.push({
      code: 'DEST_MUTATION',
      message: 'CREATE OR REPLACE DATABASE drops the existing graph database',
    });
    return;
  }
  // Procedures that run Cypher given as text: the query and the action, read as one statement.
  if (depth === 0 && /\bapoc\.(?:periodic\.(?:iterate|commit|submit|repeat)|cypher\.\w+)\s*\(/i.test(code)) {
    const inner = literals.join(' ');
    if (inner.trim() !== '') judgeStatement(mask(inner), out, depth + 1);
  }
  if (!MATCH.test(code) || narrowed(code)) return;
  if (DELETE.test(code)) {
    out.push({
      code: 'DEST_MUTATION',
      message:
        'a Cypher MATCH with no WHERE or property map deletes every node or relationship it matches (the whole graph, or every node of a label)',
    });
    return;
  }
  if (UPDATE.test(code)) {
    out.push({
      code: 'DEST_MUTATION',
      message: 'a Cypher MATCH with no WHERE or property map rewrites every node or relationship it matches',
    });
  }
}

/** Findings for Cypher text: wipes of the graph, as the SQL analyzer finds them in SQL. */
export function analyzeCypher(text: string): CypherFinding[] {
  const out: CypherFinding[] = [];
  const masked = mask(text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text);
  // Statements split at `;` outside literals; each keeps the literals it holds.
  let literalIndex = 0;
  for (const piece of masked.code.split(';')) {
    const count = (piece.match(/''/g) ?? []).length;
    const literals = masked.literals.slice(literalIndex, literalIndex + count);
    literalIndex += count;
    if (piece.trim() === '') continue;
    judgeStatement({ code: piece, literals }, out, 0);
  }
  return out;
}
