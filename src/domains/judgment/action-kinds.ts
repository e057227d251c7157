import { lookupTable } from '../../lib/lookup-table.ts';
import { type ActionKind, TARGET_LIMIT } from '../policies/index.ts';
import { splitStatements, tokenizeSql } from '../verdict/index.ts';

/**
 * The action kind each action has for the default policy, and what a policy can match on.
 * `db.query` and `http.request` take their kind from the payload (a SELECT reads, a DELETE
 * deletes; GET reads, POST writes) because one fixed kind would make the default table wrong
 * for most calls. An account's own actions are `execute`: a policy that knows better names
 * them by `context.action_type`.
 */
export const FIXED_KINDS: Readonly<Record<string, ActionKind>> = lookupTable({
  'shell.exec': 'execute',
  'fs.read': 'read',
  'fs.write': 'write',
  'fs.delete': 'delete',
  'email.send': 'communicate',
  'agent.respond': 'communicate',
});

const DELETING = new Set(['DELETE', 'DROP', 'TRUNCATE']);
const WRITING = new Set([
  'INSERT',
  'UPDATE',
  'MERGE',
  'UPSERT',
  'REPLACE',
  'CREATE',
  'ALTER',
  'GRANT',
  'REVOKE',
  'COPY',
  'CALL',
  'EXEC',
  'EXECUTE',
  'DO',
  'SET',
  'LOCK',
  'VACUUM',
  'REINDEX',
  'CLUSTER',
  'COMMENT',
  'RENAME',
  'LOAD',
  'IMPORT',
  'ATTACH',
  'DETACH',
  'PRAGMA',
]);

/** The strongest kind of any statement: a batch with one DELETE deletes. */
export function sqlKind(sql: string): ActionKind {
  let kind: ActionKind = 'read';
  for (const statement of splitStatements(tokenizeSql(sql))) {
    for (const token of statement) {
      if (token.kind !== 'word') continue;
      if (DELETING.has(token.value)) return 'delete';
      if (WRITING.has(token.value)) kind = 'write';
    }
  }
  return kind;
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function httpKind(method: unknown): ActionKind {
  const m = typeof method === 'string' ? method.toUpperCase() : 'GET';
  if (READ_METHODS.has(m)) return 'read';
  return m === 'DELETE' ? 'delete' : 'write';
}

export interface ActionFacts {
  kind: ActionKind;
  target: string;
  hosts: string[];
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase() || undefined;
  } catch {
    return undefined;
  }
}

function recipients(to: unknown): string[] {
  if (typeof to === 'string') return [to];
  return Array.isArray(to) ? to.filter((t): t is string => typeof t === 'string') : [];
}

function cut(s: string): string {
  return s.length > TARGET_LIMIT ? s.slice(0, TARGET_LIMIT) : s;
}

/**
 * Kind, target and hosts of an action. Works on any payload, also one that failed its schema:
 * the authority and policy gates still judge who asks for what.
 */
export function actionFacts(actionType: string, payload: unknown): ActionFacts {
  const p = (typeof payload === 'object' && payload !== null ? payload : {}) as Record<string, unknown>;
  switch (actionType) {
    case 'db.query':
      return { kind: sqlKind(str(p['sql'])), target: cut(str(p['sql'])), hosts: [] };
    case 'http.request': {
      const url = str(p['url']);
      const host = hostOf(url);
      return { kind: httpKind(p['method']), target: cut(url), hosts: host ? [host] : [] };
    }
    case 'email.send': {
      const to = recipients(p['to']);
      const domains = [
        ...new Set(to.map((r) => r.slice(r.lastIndexOf('@') + 1).toLowerCase()).filter(Boolean)),
      ];
      return { kind: 'communicate', target: cut(to.join(', ')), hosts: domains };
    }
    case 'agent.respond':
      return { kind: 'communicate', target: cut(str(p['text'])), hosts: [] };
    case 'shell.exec':
      return { kind: 'execute', target: cut(str(p['command'])), hosts: [] };
    case 'fs.read':
    case 'fs.write':
    case 'fs.delete':
      return { kind: FIXED_KINDS[actionType]!, target: cut(str(p['path'])), hosts: [] };
    default:
      return { kind: 'execute', target: '', hosts: [] };
  }
}
