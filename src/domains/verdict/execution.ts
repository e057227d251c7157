/** Per-account execution settings (`GET/PUT /v1/settings/execution`). */
export interface ExecutionSettings {
  /**
   * Code a shell, `eval` or an interpreter would run but that cannot be resolved statically
   * (a fetched script, a substitution that reads a file, an unknown variable in command
   * position) is refused with POLICY_VIOLATION unless this is true.
   */
  allow_opaque: boolean;
  /**
   * The posture on an action Arbiter does not understand (an unknown program, an unmodelled
   * subcommand of a known CLI, a custom action): `allow` answers safe with `recognised: false`,
   * for the integration to ask a person; `refuse` answers POLICY_VIOLATION naming what was not
   * understood.
   */
  unrecognised: 'allow' | 'refuse';
}

export const DEFAULT_EXECUTION_SETTINGS: ExecutionSettings = Object.freeze({
  allow_opaque: false,
  unrecognised: 'allow',
});
