import { domainToASCII } from 'node:url';
import type { ValidateFunction } from 'ajv';
import canonicalize from 'canonicalize';
import ipaddr from 'ipaddr.js';
import { getPublicSuffix } from 'tldts';
import { sha256 } from '../../lib/sha256.ts';
import { type ContextSettings, isEmptyContext } from './agent-context.ts';
import { DEFAULT_EGRESS_SETTINGS, type EgressSettings } from './analyzers/egress.ts';
import {
  ACCOUNT_RULE_LIMITS,
  type CatalogueContext,
  type CatalogueRule,
  type ProtectedResources,
} from './catalogue/index.ts';
import { DEFAULT_EXECUTION_SETTINGS, type ExecutionSettings } from './execution.ts';

/**
 * Names the rules the engine applies. It is part of every verdict hash, so bump it whenever an
 * analyzer changes what it decides: the same input then hashes differently under the new rules.
 */
export const ENGINE_POLICY_VERSION = 'arbiter-verdict/2026-11-23';

export interface LoopSettings {
  /** Identical failing calls allowed within the window; the next ones are RATE_LIMIT_EXCEEDED. */
  threshold: number;
  window_seconds: number;
}

export const DEFAULT_LOOP_SETTINGS: LoopSettings = Object.freeze({ threshold: 3, window_seconds: 60 });
export const LOOP_LIMITS = { threshold: { min: 1, max: 1000 }, window_seconds: { min: 1, max: 86_400 } };

export interface CustomAction {
  name: string;
  schema: Record<string, unknown>;
  validate: ValidateFunction;
  /** Short digest of the schema, part of the policy version of this action's verdicts. */
  digest: string;
  created_at: string;
  updated_at: string;
}

/** The account's own catalogue rules as stored: the document, its digest and its counter. */
export interface AccountRules {
  rules: readonly CatalogueRule[];
  /** `digestOf(rules)`; part of the policy version. */
  digest: string;
  /** Grows by one on every replacement; 0 when the account never stored rules. */
  version: number;
  updated_at?: string;
}

export const NO_ACCOUNT_RULES: AccountRules = Object.freeze({ rules: [], digest: '', version: 0 });

/** Everything that decides an account's verdicts besides the input, read together and cached. */
export interface AccountPolicy {
  /** With the context settings' `local_origins` in it, when the account names any. */
  egress: EgressSettings;
  /** Where the account's agents work by default, and their named local origins. */
  context: ContextSettings;
  loop: LoopSettings;
  actions: ReadonlyMap<string, CustomAction>;
  /** The destructive-operation catalogue's account part: own rules and protected resources. */
  catalogue: CatalogueContext;
  execution: ExecutionSettings;
  /** The rules behind `catalogue.accountRules`, with their digest and counter. */
  rules: AccountRules;
  /**
   * `ENGINE_POLICY_VERSION` and digests of every setting that differs from its default: the
   * policy version of built-ins. Loop settings are left out: they change no code but
   * RATE_LIMIT_EXCEEDED, which says so itself.
   */
  version: string;
}

export function digestOf(value: unknown): string {
  return sha256(canonicalize(value) ?? 'null').slice(0, 16);
}

export interface PolicyParts {
  egress: EgressSettings;
  protected?: ProtectedResources;
  execution?: ExecutionSettings;
  /** Digest of the account's own rules; empty when it has none. */
  rulesDigest?: string;
  context?: ContextSettings;
}

/**
 * The same input under a different policy hashes differently. Parts at their default are left
 * out, so accounts that never changed them keep the version (and verdict hashes) they had.
 */
export function policyVersion(p: PolicyParts): string {
  let version = `${ENGINE_POLICY_VERSION};egress=${digestOf(p.egress)}`;
  if (p.protected !== undefined && !isEmptyProtected(p.protected))
    version += `;protected=${digestOf(p.protected)}`;
  if (
    p.execution !== undefined &&
    (p.execution.allow_opaque !== DEFAULT_EXECUTION_SETTINGS.allow_opaque ||
      p.execution.unrecognised !== DEFAULT_EXECUTION_SETTINGS.unrecognised)
  )
    version += `;execution=${digestOf(p.execution)}`;
  if (p.rulesDigest) version += `;rules=${p.rulesDigest}`;
  if (p.context !== undefined && (!isEmptyContext(p.context) || p.context.local_origins.length > 0))
    version += `;context=${digestOf(p.context)}`;
  return version;
}

export const DEFAULT_POLICY_VERSION = policyVersion({ egress: DEFAULT_EGRESS_SETTINGS });

// ------------------------------------------------------------------------- protected resources

export const PROTECTED_KINDS = ['branches', 'namespaces', 'databases', 'buckets', 'projects'] as const;
export type ProtectedKind = (typeof PROTECTED_KINDS)[number];
export const MAX_PROTECTED_PER_KIND = 200;
export const MAX_PROTECTED_NAME = 200;

function isEmptyProtected(resources: ProtectedResources): boolean {
  return PROTECTED_KINDS.every((kind) => resources[kind].length === 0);
}

export type ProtectedCheck =
  | { ok: true; resources: ProtectedResources }
  | { ok: false; reason: string; field: ProtectedKind; index?: number };

/**
 * Protected names as the catalogue matches them: exact and case-sensitive, a trailing `*`
 * matching any suffix. Duplicates go; lists are sorted so equal settings have equal digests.
 */
export function normalizeProtected(input: Partial<Record<ProtectedKind, readonly string[]>>): ProtectedCheck {
  const out = {} as Record<ProtectedKind, string[]>;
  for (const kind of PROTECTED_KINDS) {
    const names = new Set<string>();
    for (const [index, raw] of (input[kind] ?? []).entries()) {
      const name = raw.trim();
      const why = protectedNameProblem(name);
      if (why)
        return { ok: false, field: kind, index, reason: `${kind}[${index}] "${raw.slice(0, 100)}" ${why}` };
      names.add(name);
    }
    if (names.size > MAX_PROTECTED_PER_KIND)
      return { ok: false, field: kind, reason: `${kind} holds more than ${MAX_PROTECTED_PER_KIND} names` };
    out[kind] = [...names].sort();
  }
  return { ok: true, resources: out };
}

function protectedNameProblem(name: string): string | undefined {
  if (name === '') return 'is empty';
  if (name.length > MAX_PROTECTED_NAME) return `is longer than ${MAX_PROTECTED_NAME} characters`;
  if (/[\s\u0000-\u001f\u007f]/u.test(name)) return 'holds white space or a control character';
  const star = name.indexOf('*');
  if (star !== -1 && star !== name.length - 1) return 'may hold `*` only as its last character';
  if (name === '*') return 'would protect every name; give a prefix before `*` (such as `release-*`)';
  return undefined;
}

/** Reads the stored JSON back; anything unexpected in it is left out rather than trusted. */
export function parseProtected(json: string): ProtectedResources {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    value = {};
  }
  const obj = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const out = {} as Record<ProtectedKind, string[]>;
  for (const kind of PROTECTED_KINDS) {
    const list = obj[kind];
    out[kind] = Array.isArray(list) ? list.filter((v): v is string => typeof v === 'string') : [];
  }
  return out;
}

// ------------------------------------------------------------------------- account rules

/** What the catalogue accepts from one account; the API refuses a longer list before parsing it. */
export const MAX_ACCOUNT_RULES = ACCOUNT_RULE_LIMITS.rules;
export const MAX_RULES_BYTES = 256 * 1024;

// ------------------------------------------------------------------------- egress domains

export const MAX_DOMAINS = 1000;
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

export type DomainCheck = { ok: true; domain: string } | { ok: false; reason: string };

/**
 * A domain as the egress analyzer matches it: lower-case, punycode, no wildcard prefix or
 * trailing dot. Sub-domains are covered by their parent, so `*.example.com` means `example.com`.
 */
export function normalizeDomain(input: string, list: 'trusted' | 'blocked'): DomainCheck {
  const raw = input
    .trim()
    .toLowerCase()
    .replace(/^\*\./, '')
    .replace(/^\.|\.$/g, '');
  if (raw === '') return { ok: false, reason: 'is empty' };
  if (/[\s/:@?#]/.test(raw)) return { ok: false, reason: 'must be a domain name, not a URL or address' };
  if (ipaddr.isValid(raw.replace(/^\[|\]$/g, ''))) {
    return { ok: false, reason: 'is an IP address; egress to raw IP addresses is always refused' };
  }
  const ascii = domainToASCII(raw);
  if (ascii === '' || ascii.length > 253) return { ok: false, reason: 'is not a valid domain name' };
  const labels = ascii.split('.');
  if (labels.length < 2) return { ok: false, reason: 'needs at least two labels (e.g. example.com)' };
  if (!labels.every((label) => LABEL.test(label))) return { ok: false, reason: 'is not a valid domain name' };
  if (list === 'trusted' && getPublicSuffix(ascii, { allowPrivateDomains: true }) === ascii) {
    return { ok: false, reason: 'is a public suffix; trusting it would trust every site under it' };
  }
  return { ok: true, domain: ascii };
}

// ------------------------------------------------------------------------- custom actions

export const ACTION_NAME_PATTERN = '^[A-Za-z][A-Za-z0-9_.:-]{0,99}$';
export const MAX_SCHEMA_BYTES = 32 * 1024;
export const MAX_CUSTOM_ACTIONS = 500;
const MAX_SCHEMA_DEPTH = 32;
const SCALAR_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null']);
/** Items compared pairwise by `uniqueItems` when they are not scalars: O(n²) in the array length. */
const MAX_UNIQUE_OBJECT_ITEMS = 100;

function scalarItems(items: unknown): boolean {
  if (typeof items !== 'object' || items === null) return false;
  const type = (items as { type?: unknown }).type;
  const types = Array.isArray(type) ? type : [type];
  return types.length > 0 && types.every((t) => typeof t === 'string' && SCALAR_TYPES.has(t));
}

/**
 * Refuses account schemas that would make validation slow or unsound on the hot path, before
 * ajv sees them. Patterns need no check here: they run on a linear-time engine (catalog.ts).
 * Returns why the schema is refused, or undefined.
 */
export function guardActionSchema(schema: unknown): string | undefined {
  const text = canonicalize(schema);
  if (text === undefined) return 'schema is not serialisable as JSON';
  if (Buffer.byteLength(text) > MAX_SCHEMA_BYTES) {
    return `schema is larger than ${MAX_SCHEMA_BYTES} bytes`;
  }
  const visit = (node: unknown, depth: number, path: string): string | undefined => {
    if (typeof node !== 'object' || node === null) return undefined;
    if (depth > MAX_SCHEMA_DEPTH) return `schema nests deeper than ${MAX_SCHEMA_DEPTH} levels at ${path}`;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const why = visit(node[i], depth + 1, `${path}/${i}`);
        if (why) return why;
      }
      return undefined;
    }
    const obj = node as Record<string, unknown>;
    // An async schema validates to a promise, which a synchronous caller would read as "valid".
    if ('$async' in obj) return `${path}: $async schemas are not supported`;
    if (obj['uniqueItems'] === true && !scalarItems(obj['items'])) {
      const max = obj['maxItems'];
      if (typeof max !== 'number' || max > MAX_UNIQUE_OBJECT_ITEMS) {
        return `${path}: uniqueItems on non-scalar items needs maxItems ≤ ${MAX_UNIQUE_OBJECT_ITEMS} (or items with a scalar type)`;
      }
    }
    for (const [key, value] of Object.entries(obj)) {
      const why = visit(value, depth + 1, `${path}/${key}`);
      if (why) return why;
    }
    return undefined;
  };
  return visit(schema, 0, '#');
}
