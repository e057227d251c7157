import type { KeyRole } from './roles.ts';

/** Who is calling: resolved from a bearer key on every authenticated request. */
export interface Principal {
  keyId: string;
  accountId: string;
  plan: string;
  role: KeyRole;
}
