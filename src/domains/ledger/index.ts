/**
 * What other code may use of the ledger: the secret rules (the verdict engine's egress analyzer
 * scans with them) and the text-check warm-up (the server runs it at start).
 */

export { SecretScanner, shannonEntropy, shippedSecretRuleSet } from '../../shared/secrets/secret-rules.ts';
export { warmTextCheckHere, warmTextCheckThread } from './conflicts/text-check-thread.ts';
