/** Per-account execution settings (`GET/PUT /v1/settings/execution`). */
export interface ExecutionSettings {
  /**
   * Code a shell, `eval` or an interpreter would run but that cannot be resolved statically
   * (a fetched script, a substitution that reads a file, an unknown variable in command
   * position) is refused with POLICY_VIOLATION unless this is true.
   */
  allow_opaque: boolean;
}

export const DEFAULT_EXECUTION_SETTINGS: ExecutionSettings = Object.freeze({ allow_opaque: false });
