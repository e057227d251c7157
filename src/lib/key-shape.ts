/**
 * The shape of a secret key: `arbiter_sk_` followed by 32 to 128 base62 characters (DESIGN
 * "Contract decisions"). Kept below the api-keys domain so that configuration can check a
 * bootstrap key without importing the domain.
 */
export const KEY_PREFIX = 'arbiter_sk_';
const WELL_FORMED = /^arbiter_sk_[0-9A-Za-z]{32,128}$/;

export function isWellFormedKey(candidate: string): boolean {
  return WELL_FORMED.test(candidate);
}
