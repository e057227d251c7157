/**
 * The policy every account starts with (version 0), the table in docs/api.md (under Judgment) in
 * Cedar. Permits are the authority gate: what each role may do, by action kind and impact scope;
 * a permit marked `@escalate` grants only with a human's approval, and an action no permit grants
 * is blocked. Forbids are the policy gate: restrictions beyond authority, `@escalate` on a forbid
 * turning its block into an escalation.
 */
export const DEFAULT_POLICY = `// Authority: who may do what kind of action, at which impact scope.

@id("admin-anything")
permit (principal in Arbiter::Role::"admin", action, resource);

@id("user-internal")
permit (principal in Arbiter::Role::"user", action, resource in Arbiter::Scope::"internal");

@id("user-external")
permit (
  principal in Arbiter::Role::"user",
  action in [Arbiter::Action::"read", Arbiter::Action::"write", Arbiter::Action::"execute", Arbiter::Action::"communicate"],
  resource in Arbiter::Scope::"external"
);

@id("user-external-delete")
@escalate("a user deleting outside the organisation needs a human's approval")
permit (principal in Arbiter::Role::"user", action == Arbiter::Action::"delete", resource in Arbiter::Scope::"external");

@id("assistant-read")
permit (principal in Arbiter::Role::"assistant", action == Arbiter::Action::"read", resource)
unless { resource in Arbiter::Scope::"critical" };

@id("assistant-internal")
permit (
  principal in Arbiter::Role::"assistant",
  action in [Arbiter::Action::"write", Arbiter::Action::"execute", Arbiter::Action::"communicate"],
  resource in Arbiter::Scope::"internal"
);

@id("assistant-internal-delete")
@escalate("an assistant deleting data needs a human's approval")
permit (principal in Arbiter::Role::"assistant", action == Arbiter::Action::"delete", resource in Arbiter::Scope::"internal");

@id("assistant-external")
@escalate("an assistant acting outside the organisation needs a human's approval")
permit (principal in Arbiter::Role::"assistant", action, resource in Arbiter::Scope::"external")
unless { action == Arbiter::Action::"read" };

@id("critical-non-admin")
@escalate("a non-admin acting on critical scope needs a human's approval")
permit (principal, action, resource in Arbiter::Scope::"critical")
unless {
  principal in Arbiter::Role::"admin" ||
  (principal in Arbiter::Role::"assistant" &&
    (action == Arbiter::Action::"delete" || action == Arbiter::Action::"execute"))
};

// Policy: restrictions beyond authority. Schema and privilege changes (what the verdict engine
// reports as POLICY_VIOLATION) are refused to assistants and users and need a second person for
// an admin. An account adds its own forbids here, for example
//   @escalate("payments need a human") forbid (principal, action, resource)
//   when { context.hosts.contains("api.stripe.com") };

@id("boundary-schema-changes")
forbid (principal, action, resource)
when { context.findings.contains("POLICY_VIOLATION") }
unless { principal in Arbiter::Role::"admin" };

@id("boundary-schema-changes-admin")
@escalate("an admin changing schema or privileges needs a second person's approval")
forbid (principal in Arbiter::Role::"admin", action, resource)
when { context.findings.contains("POLICY_VIOLATION") };

// What Arbiter does not understand (an unknown program, a subcommand of a cloud CLI it does not
// model) and that may do more than read: a person decides, whatever the role. A read not
// understood passes, and so does an account's own action, whose effects Arbiter does not know
// (name it by context.action_type to have it escalated too).

@id("unrecognised-effects")
@escalate("Arbiter does not know what this does, and it may change or send something: a person decides")
forbid (principal, action, resource)
when { !context.recognised }
unless { ["read"].containsAll(context.effects) };
`;
