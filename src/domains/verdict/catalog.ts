import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import canonicalize from 'canonicalize';
import { RE2JS } from 're2js';
import type { Finding } from './codes.ts';

/** The built-in actions of DESIGN "Built-in actions for POST /v1/evaluate". */
export const BUILT_IN_ACTIONS = [
  'db.query',
  'shell.exec',
  'fs.read',
  'fs.write',
  'fs.delete',
  'http.request',
  'email.send',
  'agent.respond',
] as const;

export type BuiltInAction = (typeof BUILT_IN_ACTIONS)[number];

export interface DbQueryPayload {
  sql: string;
  params?: unknown[];
  dialect?: SqlDialect;
}
export type SqlDialect = 'postgres' | 'mysql' | 'mariadb' | 'sqlite' | 'mssql' | 'bigquery' | 'snowflake';
export interface ShellExecPayload {
  command: string;
  cwd?: string;
  env?: Record<string, string>;
}
export interface FsReadPayload {
  path: string;
}
export interface FsWritePayload {
  path: string;
  content: string;
}
export interface FsDeletePayload {
  path: string;
  recursive?: boolean;
}
export interface HttpRequestPayload {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
}
export interface EmailSendPayload {
  to: string | string[];
  subject: string;
  body: string;
}
export interface AgentRespondPayload {
  text: string;
}

const str = { type: 'string' } as const;

/** Strict schemas: an invented parameter is as much a mismatch as a missing one. */
export const BUILT_IN_SCHEMAS: Record<BuiltInAction, object> = {
  'db.query': {
    type: 'object',
    additionalProperties: false,
    required: ['sql'],
    properties: {
      sql: str,
      params: { type: 'array' },
      dialect: { enum: ['postgres', 'mysql', 'mariadb', 'sqlite', 'mssql', 'bigquery', 'snowflake'] },
    },
  },
  'shell.exec': {
    type: 'object',
    additionalProperties: false,
    required: ['command'],
    properties: {
      command: str,
      cwd: str,
      env: { type: 'object', additionalProperties: str },
    },
  },
  'fs.read': {
    type: 'object',
    additionalProperties: false,
    required: ['path'],
    properties: { path: str },
  },
  'fs.write': {
    type: 'object',
    additionalProperties: false,
    required: ['path', 'content'],
    properties: { path: str, content: str },
  },
  'fs.delete': {
    type: 'object',
    additionalProperties: false,
    required: ['path'],
    properties: { path: str, recursive: { type: 'boolean' } },
  },
  'http.request': {
    type: 'object',
    additionalProperties: false,
    required: ['url'],
    properties: {
      url: str,
      method: { type: 'string', pattern: '^[A-Za-z]{1,16}$' },
      headers: { type: 'object', additionalProperties: str },
      body: {},
    },
  },
  'email.send': {
    type: 'object',
    additionalProperties: false,
    required: ['to', 'subject', 'body'],
    properties: {
      to: { anyOf: [str, { type: 'array', minItems: 1, items: str }] },
      subject: str,
      body: str,
    },
  },
  'agent.respond': {
    type: 'object',
    additionalProperties: false,
    required: ['text'],
    properties: { text: str },
  },
};

// Built-ins are ours and trusted; compiled once at module load so the hot path never compiles.
const builtInAjv = new Ajv({ allErrors: false, strict: true });
const builtInValidators = new Map<string, ValidateFunction>(
  BUILT_IN_ACTIONS.map((action) => [action, builtInAjv.compile(BUILT_IN_SCHEMAS[action])]),
);

export function isBuiltInAction(action: string): action is BuiltInAction {
  return builtInValidators.has(action);
}

/**
 * Account patterns run on RE2's linear-time engine: with V8's backtracking one, an account's
 * `pattern` such as `a*b` takes seconds on a 100 kB string and would stall every account on the
 * instance. RE2 refuses what it cannot match in linear time (lookaround, backreferences), which
 * surfaces as a 400 when the schema is registered.
 */
const linearRegExp = Object.assign(
  (pattern: string) => {
    const re = RE2JS.compile(pattern);
    // ajv keys compiled patterns by their string form: it must name the pattern.
    return { test: (text: string) => re.matcher(text).find(), toString: () => `/${pattern}/` };
  },
  { code: 'linearRegExp' },
);

// Account schemas get their own instance: `addUsedSchema: false` keeps two accounts' `$id`s
// from colliding, and strict mode rejects keywords ajv would otherwise silently ignore.
const customAjv = new Ajv({
  allErrors: false,
  strict: true,
  addUsedSchema: false,
  code: { regExp: linearRegExp },
});
const customCache = new Map<string, ValidateFunction>();
const CUSTOM_CACHE_LIMIT = 10_000;

export type CompiledSchema = { ok: true; validate: ValidateFunction } | { ok: false; error: string };

/**
 * Compiles an account's JSON Schema for a custom action. An invalid schema is a value
 * (`ok: false`) whose `error` says why, for a 400 from `PUT /v1/actions/{action}`.
 */
export function compileActionSchema(schema: unknown): CompiledSchema {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    return { ok: false, error: 'schema must be a JSON object' };
  }
  const key = canonicalize(schema);
  if (key === undefined) return { ok: false, error: 'schema is not serialisable as JSON' };
  const cached = customCache.get(key);
  if (cached !== undefined) return { ok: true, validate: cached };
  const root = schema as { type?: unknown };
  if (root.type !== undefined && root.type !== 'object') {
    return { ok: false, error: 'schema must describe an object payload (type "object")' };
  }
  try {
    const validate = customAjv.compile(schema);
    if (customCache.size >= CUSTOM_CACHE_LIMIT) {
      const oldest = customCache.keys().next().value;
      if (oldest !== undefined) customCache.delete(oldest);
    }
    customCache.set(key, validate);
    return { ok: true, validate };
  } catch (error) {
    return {
      ok: false,
      error: `invalid JSON Schema: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

function describeError(error: ErrorObject): string {
  const where = error.instancePath === '' ? 'payload' : `payload${error.instancePath.replaceAll('/', '.')}`;
  switch (error.keyword) {
    case 'additionalProperties':
      return `${where} has an unknown parameter "${String(error.params['additionalProperty'])}"`;
    case 'required':
      return `${where} is missing required parameter "${String(error.params['missingProperty'])}"`;
    default:
      return `${where} ${error.message ?? 'is invalid'}`;
  }
}

export function schemaFindings(validate: ValidateFunction, action: string, payload: unknown): Finding[] {
  if (validate(payload)) return [];
  const first = validate.errors?.[0];
  const detail = first === undefined ? 'payload is invalid' : describeError(first);
  return [
    {
      code: 'SCHEMA_MISMATCH',
      message: `${action}: ${detail}`,
      location: first?.instancePath ? `field ${first.instancePath.slice(1).replaceAll('/', '.')}` : 'payload',
    },
  ];
}

/** Validator for a built-in action, or undefined when the name is not built in. */
export function builtInValidator(action: string): ValidateFunction | undefined {
  return builtInValidators.get(action);
}
