import canonicalize from 'canonicalize';
import { readPrecondition } from '../../lib/state-precondition.ts';
import { type AgentContext, isEmptyContext, readAgentContext } from './agent-context.ts';

/** Who asks: the account and the key that made the call. */
export interface Caller {
  accountId: string;
  keyId: string;
}

const ENVELOPE_FIELDS = new Set(['action', 'payload', 'expected_state_hash', 'context']);

export type Envelope =
  | {
      ok: true;
      action: string;
      payload: Record<string, unknown>;
      expected: string | undefined;
      /** Where the agent works, when the request says; a context that says nothing is none. */
      context: AgentContext | undefined;
    }
  | { ok: false; action: string; payload: unknown; message: string };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function mismatch(action: string, body: unknown, message: string): Envelope {
  return { ok: false, action, payload: body ?? null, message };
}

/**
 * The request as the verdict engine needs it. A JSON body that is not `{action, payload}` is not
 * an HTTP error but a verdict: SCHEMA_MISMATCH, like any other payload that misses its schema.
 */
export function readEnvelope(body: unknown, ifMatch: string | string[] | undefined): Envelope {
  const action = isPlainObject(body) && typeof body['action'] === 'string' ? body['action'] : '';
  if (!isPlainObject(body))
    return mismatch(action, body, 'the request body must be a JSON object {action, payload}');
  for (const key of Object.keys(body)) {
    if (!ENVELOPE_FIELDS.has(key))
      return mismatch(action, body, `unknown top-level field "${key.slice(0, 40)}"`);
  }
  if (typeof body['action'] !== 'string') return mismatch(action, body, 'action must be a string');
  const payload = body['payload'];
  if (!isPlainObject(payload)) return mismatch(action, body, 'payload must be a JSON object');
  const precondition = readPrecondition({
    fields: [['expected_state_hash', body['expected_state_hash']]],
    ifMatch,
  });
  if (!precondition.ok) return mismatch(action, body, precondition.message);
  let context: AgentContext | undefined;
  if (body['context'] !== undefined) {
    const checked = readAgentContext(body['context']);
    if (!checked.ok) return mismatch(action, body, checked.message);
    if (!isEmptyContext(checked.value)) context = checked.value;
  }
  return { ok: true, action: body['action'], payload, expected: precondition.expected, context };
}

/** Whether the body has a canonical JSON form (RFC 8785), and so a verdict hash. */
export function hasCanonicalForm(value: unknown): boolean {
  try {
    return canonicalize(value ?? null) !== undefined;
  } catch {
    return false;
  }
}
