import { analyzeHttpRequest, type EgressSettings } from './analyzers/egress.ts';
import { analyzeFsPath, type PathContext } from './analyzers/paths.ts';
import { analyzeEmail, secretsIn } from './analyzers/sensitive-text.ts';
import { judgeManifest } from './analyzers/shell/supply-chain.ts';
import { plantedReading, readShell } from './analyzers/shell.ts';
import { analyzeSql } from './analyzers/sql.ts';
import type {
  AgentRespondPayload,
  BuiltInAction,
  DbQueryPayload,
  EmailSendPayload,
  FsDeletePayload,
  FsReadPayload,
  FsWritePayload,
  HttpRequestPayload,
  ShellExecPayload,
} from './catalog.ts';
import { type CatalogueContext, judgeArgv } from './catalogue/index.ts';
import type { Finding } from './codes.ts';
import type { EffectKind, Step } from './effects.ts';
import type { ExecutionSettings } from './execution.ts';

/** The account's settings an action is judged under, defaults filled in. */
export interface ActionContext {
  egress: EgressSettings;
  paths: PathContext;
  catalogue: CatalogueContext;
  execution: ExecutionSettings;
  textChecker?: ((text: string) => Finding[]) | undefined;
}

/** What an action would do: the findings that refuse it, and its steps as effects. */
export interface Reading {
  findings: Finding[];
  steps: Step[];
}

interface Payloads {
  'db.query': DbQueryPayload;
  'shell.exec': ShellExecPayload;
  'fs.read': FsReadPayload;
  'fs.write': FsWritePayload;
  'fs.delete': FsDeletePayload;
  'http.request': HttpRequestPayload;
  'email.send': EmailSendPayload;
  'agent.respond': AgentRespondPayload;
}

type Reducer<P> = (payload: P, ctx: ActionContext) => Reading;

const one = (kind: EffectKind, target?: string): Step[] => [
  {
    effects: [{ kind, ...(target === undefined ? {} : { target: target.slice(0, 256) }) }],
    recognised: true,
  },
];

/** SQL that only reads; anything else the statement changes. */
const READ_ONLY_SQL =
  /^\s*(?:\(\s*)*(?:select|with|show|explain|describe|desc|values|table|pragma\s+\w+\s*;?\s*$)\b/i;

/**
 * Every built-in action reduced to its findings and effects. A mapped type over the built-in
 * actions: an action added to the list without a reducer does not compile.
 */
export const REDUCERS: { [A in BuiltInAction]: Reducer<Payloads[A]> } = {
  'db.query': (p) => {
    const findings = analyzeSql(p.sql, { dialect: p.dialect });
    return { findings, steps: one(READ_ONLY_SQL.test(p.sql) ? 'read' : 'write', 'database') };
  },
  'shell.exec': (p, ctx) => {
    const options = { ...ctx, ...(p.env ? { env: p.env } : {}) };
    const reading = readShell(p.command, p.cwd === undefined ? options : { ...options, cwd: p.cwd });
    return { findings: [...reading.findings], steps: [...reading.steps] };
  },
  'fs.read': (p, ctx) => ({
    findings: analyzeFsPath('read', p.path, false, ctx.paths),
    steps: one('read', p.path),
  }),
  'fs.write': (p, ctx) => {
    // `~/.bashrc`, `.git/hooks/pre-commit`, a CI workflow, package.json: what is written there runs later.
    const planted = plantedReading(p.path, p.content, ctx);
    return {
      findings: [
        ...analyzeFsPath('write', p.path, false, ctx.paths),
        ...planted.findings,
        ...judgeManifest(p.path, p.content, ctx.egress),
      ],
      steps: [...one('write', p.path), ...planted.steps],
    };
  },
  'fs.delete': (p, ctx) => ({
    findings: analyzeFsPath('delete', p.path, p.recursive === true, ctx.paths),
    steps: one('delete', p.path),
  }),
  'http.request': (p, ctx) => {
    // A request is the call `curl -X METHOD URL` makes: the catalogue's rules for forge and
    // cloud REST APIs (DELETE of a repository, of a protected branch) judge both the same.
    const findings = analyzeHttpRequest(p, ctx.egress);
    const method = (p.method ?? 'GET').toUpperCase();
    const argv = ['curl', '-X', method];
    // The body as curl's `-d` (the first 64 KiB: enough for a query, bounded for the rules).
    if (p.body !== undefined && p.body !== null) {
      const body = typeof p.body === 'string' ? p.body : JSON.stringify(p.body);
      argv.push('-d', body.length > 65536 ? body.slice(0, 65536) : body);
    }
    findings.push(...judgeArgv([...argv, p.url], ctx.catalogue));
    const host = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(p.url)?.[1] ?? p.url;
    const steps = one('egress', host);
    if (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS') {
      steps.push(...one('remote_mutation', `${method} ${host}`));
    }
    return { findings, steps };
  },
  'email.send': (p, ctx) => {
    const findings = analyzeEmail(p.to, p.subject, p.body, ctx.egress);
    if (ctx.textChecker) findings.push(...ctx.textChecker(`${p.subject}\n${p.body}`));
    return { findings, steps: one('egress', 'email') };
  },
  'agent.respond': (p, ctx) => ({
    findings: [
      ...secretsIn(p.text, 'the answer', 'field text'),
      ...(ctx.textChecker ? ctx.textChecker(p.text) : []),
    ],
    steps: one('egress', 'the user'),
  }),
};

export function reduceBuiltIn(action: BuiltInAction, payload: unknown, ctx: ActionContext): Reading {
  return (REDUCERS[action] as Reducer<unknown>)(payload, ctx);
}
