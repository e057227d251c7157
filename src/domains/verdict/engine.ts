import type { ValidateFunction } from 'ajv';
import canonicalize from 'canonicalize';
import { sha256Hex } from '../../lib/sha256.ts';
import { analyzeHttpRequest, DEFAULT_EGRESS_SETTINGS, type EgressSettings } from './analyzers/egress.ts';
import { analyzeFsPath, DEFAULT_PATH_CONTEXT, type PathContext } from './analyzers/paths.ts';
import { analyzeEmail } from './analyzers/sensitive-text.ts';
import { analyzeShell, plantedFindings } from './analyzers/shell.ts';
import { analyzeSql } from './analyzers/sql.ts';
import {
  type AgentRespondPayload,
  builtInValidator,
  type DbQueryPayload,
  type EmailSendPayload,
  type FsDeletePayload,
  type FsReadPayload,
  type FsWritePayload,
  type HttpRequestPayload,
  type ShellExecPayload,
  schemaFindings,
} from './catalog.ts';
import { type CatalogueContext, DEFAULT_CATALOGUE_CONTEXT, judgeArgv } from './catalogue/index.ts';
import { type Finding, topFinding, type VerdictCode } from './codes.ts';
import { DEFAULT_EXECUTION_SETTINGS, type ExecutionSettings } from './execution.ts';

export interface EvaluateInput {
  action: string;
  payload: unknown;
}

export interface EvaluateContext {
  /** The account's egress settings; DEFAULT_EGRESS_SETTINGS when absent. */
  egress?: EgressSettings;
  /** Validator of an account's custom action (see compileActionSchema), or undefined. */
  customActions?: (action: string) => ValidateFunction | undefined;
  /** Claim-ledger contradiction check for what the agent says or writes. */
  textChecker?: (text: string) => Finding[];
  /** Home and workspace the agent's relative paths are resolved against. */
  paths?: PathContext;
  /** The destructive-operation catalogue's account part: own rules and protected resources. */
  catalogue?: CatalogueContext;
  /** What the account allows that is refused by default. */
  execution?: ExecutionSettings;
}

export interface Verdict {
  is_safe: boolean;
  /** The finding that decides the verdict, by VERDICT_PRECEDENCE. */
  finding?: Finding;
  findings: Finding[];
}

function analyzeBuiltIn(action: string, payload: unknown, ctx: EvaluateContext): Finding[] {
  const egress = ctx.egress ?? DEFAULT_EGRESS_SETTINGS;
  const paths = ctx.paths ?? DEFAULT_PATH_CONTEXT;
  const catalogue = ctx.catalogue ?? DEFAULT_CATALOGUE_CONTEXT;
  const execution = ctx.execution ?? DEFAULT_EXECUTION_SETTINGS;
  switch (action) {
    case 'db.query': {
      const p = payload as DbQueryPayload;
      return analyzeSql(p.sql, { dialect: p.dialect });
    }
    case 'shell.exec': {
      const p = payload as ShellExecPayload;
      const options = { egress, paths, catalogue, execution, ...(p.env ? { env: p.env } : {}) };
      return analyzeShell(p.command, p.cwd === undefined ? options : { ...options, cwd: p.cwd });
    }
    case 'fs.read':
      return analyzeFsPath('read', (payload as FsReadPayload).path, false, paths);
    case 'fs.write': {
      // `~/.bashrc`, `.git/hooks/pre-commit`, a systemd unit: what is written there runs later.
      const p = payload as FsWritePayload;
      return [
        ...analyzeFsPath('write', p.path, false, paths),
        ...plantedFindings(p.path, p.content, { egress, paths, catalogue, execution }),
      ];
    }
    case 'fs.delete': {
      const p = payload as FsDeletePayload;
      return analyzeFsPath('delete', p.path, p.recursive === true, paths);
    }
    case 'http.request': {
      // A request is the call `curl -X METHOD URL` makes: the catalogue's rules for forge and
      // cloud REST APIs (DELETE of a repository, of a protected branch) judge both the same.
      const p = payload as HttpRequestPayload;
      const findings = analyzeHttpRequest(p, egress);
      const argv = ['curl', '-X', (p.method ?? 'GET').toUpperCase()];
      // The body as curl's `-d` (the first 64 KiB: enough for a query, bounded for the rules).
      if (p.body !== undefined && p.body !== null) {
        const body = typeof p.body === 'string' ? p.body : JSON.stringify(p.body);
        argv.push('-d', body.length > 65536 ? body.slice(0, 65536) : body);
      }
      findings.push(...judgeArgv([...argv, p.url], catalogue));
      return findings;
    }
    case 'email.send': {
      const p = payload as EmailSendPayload;
      const findings = analyzeEmail(p.to, p.subject, p.body, egress);
      if (ctx.textChecker) findings.push(...ctx.textChecker(`${p.subject}\n${p.body}`));
      return findings;
    }
    case 'agent.respond':
      return ctx.textChecker ? ctx.textChecker((payload as AgentRespondPayload).text) : [];
    default:
      return [];
  }
}

function verdictOf(findings: Finding[]): Verdict {
  const finding = topFinding(findings);
  return finding === undefined ? { is_safe: true, findings } : { is_safe: false, finding, findings };
}

/**
 * Judges one proposed action. Pure: the same input and context always give the same
 * verdict. Schema validation runs first, so analyzers only ever see well-typed payloads.
 */
export function evaluateAction(input: EvaluateInput, ctx: EvaluateContext = {}): Verdict {
  const { action, payload } = input;
  const builtIn = builtInValidator(action);
  const validate = builtIn ?? ctx.customActions?.(action);
  if (validate === undefined) {
    return verdictOf([
      {
        code: 'SCHEMA_MISMATCH',
        message: `unknown action "${String(action).slice(0, 64)}": not built in and not registered for this account`,
        location: 'action',
      },
    ]);
  }
  const schema = schemaFindings(validate, action, payload);
  if (schema.length > 0) return verdictOf(schema);
  if (builtIn === undefined) return verdictOf([]);
  return verdictOf(analyzeBuiltIn(action, payload, ctx));
}

/**
 * SHA-256 (hex) of the RFC 8785 canonical JSON of action, payload, outcome code and
 * policy version: the same input under the same policy always hashes the same.
 */
export function verdictHash(
  action: string,
  payload: unknown,
  code: VerdictCode | null,
  policyVersion: string,
): string {
  const canonical = canonicalize({ action, payload, code, policy_version: policyVersion }) ?? 'null';
  return sha256Hex(canonical);
}

/**
 * `verdictHash` for a payload already in canonical JSON, so a caller that also needs the
 * canonical form (loop fingerprints) serialises a large payload once. RFC 8785 orders the keys
 * `action`, `code`, `payload`, `policy_version` and writes strings as JSON.stringify does.
 */
export function verdictHashOfCanonical(
  action: string,
  canonicalPayload: string,
  code: VerdictCode | null,
  policyVersion: string,
): string {
  return sha256Hex(
    `{"action":${JSON.stringify(action)},"code":${JSON.stringify(code)},"payload":${canonicalPayload},"policy_version":${JSON.stringify(policyVersion)}}`,
  );
}
