import {
  ACTION_KINDS,
  ACTOR_ROLES,
  type ActionKind,
  type ActorRole,
  IMPACT_SCOPES,
  type ImpactScope,
} from '../../shared/action-vocabulary.ts';

export {
  ACTION_KINDS,
  ACTOR_ROLES as ROLES,
  type ActionKind,
  type ActorRole,
  IMPACT_SCOPES as SCOPES,
  type ImpactScope,
} from '../../shared/action-vocabulary.ts';

const quoted = (words: readonly string[]) => words.map((w) => JSON.stringify(w)).join(', ');

/**
 * The Cedar schema every account's policies are validated against (strict mode). Roles and
 * scopes are enumerated groups, so `principal in Arbiter::Role::"assistant"` and
 * `resource in Arbiter::Scope::"critical"` read like the default table and a typo in either is
 * refused at upload. The Cedar action is the action kind; the resource is the action type
 * (`Arbiter::Target::"db.query"`) placed in its impact scope.
 */
export const CEDAR_SCHEMA = `namespace Arbiter {
  entity Role enum [${quoted(ACTOR_ROLES)}];
  entity Actor in [Role];
  entity Scope enum [${quoted(IMPACT_SCOPES)}];
  entity Target in [Scope];

  type Context = {
    "actor": String,
    "actor_role": String,
    "action_type": String,
    "action_kind": String,
    "impact_scope": String,
    "destructive": Bool,
    "findings": Set<String>,
    "target": String,
    "hosts": Set<String>,
    "recognised": Bool,
    "effects": Set<String>,
  };

  action ${quoted(ACTION_KINDS)}
    appliesTo { principal: [Actor], resource: [Target], context: Context };
}
`;

/** What a policy may read from `context`; `target` is cut at this many characters. */
export const TARGET_LIMIT = 4096;

export interface CedarContext {
  actor: string;
  actor_role: ActorRole;
  action_type: string;
  action_kind: ActionKind;
  impact_scope: ImpactScope;
  /** A delete, or an analyzer found a destructive mutation. */
  destructive: boolean;
  /** Codes the verdict analyzers found in the payload (e.g. `DEST_MUTATION`). */
  findings: string[];
  /** What is acted on, as text: SQL, command, path, URL, recipients, or what the agent says. */
  target: string;
  /** Hosts the action reaches: the URL's host, the recipients' domains. */
  hosts: string[];
  /**
   * False when the verdict engine could not reduce some step of the action to known effects (an
   * unknown program, an unmodelled subcommand of a cloud CLI, an account's own action).
   */
  recognised: boolean;
  /**
   * The kinds of effect the verdict engine understood the action to have, sorted: `read`, `write`,
   * `delete`, `execute`, `install`, `egress`, `privilege`, `persistence`, `security_control`,
   * `credential_access`, `remote_mutation`.
   */
  effects: string[];
}

/** The attributes whose values follow from role, kind and scope alone. */
export const CELL_ATTRIBUTES: ReadonlySet<string> = new Set(['actor_role', 'action_kind', 'impact_scope']);
