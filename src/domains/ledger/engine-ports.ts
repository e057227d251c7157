import { GENESIS_HASH } from '../../db/chain.ts';
import type { LedgerStatePort, LedgerTextPort } from '../verdict/index.ts';
import type { LedgerService } from './service.ts';
import { textCheckFindings } from './setup.ts';
import { createStateHashCache } from './state-cache.ts';

/** How long a remembered state hash may be reported before the chain head is read again. */
const STATE_HASH_TTL_MS = 200;

/**
 * What the verdict and judgment engines need from the ledger: the account's state hash
 * (STATE_DRIFT) and contradictions of its verified facts (CONFLICT_DETECTED). The state hash is
 * remembered for a moment; `service` is the ledger service whose writes on this instance refresh
 * the remembered hash at once, and the one every caller on this instance should use.
 */
export function ledgerEnginePorts(ledger: LedgerService): {
  service: LedgerService;
  state: LedgerStatePort;
  text: LedgerTextPort;
} {
  const stateHashes = createStateHashCache(ledger.currentStateHash, { ttlMs: STATE_HASH_TTL_MS });
  const service: LedgerService = {
    ...ledger,
    async store(accountId, ...rest) {
      const result = await ledger.store(accountId, ...rest);
      stateHashes.written(accountId, result.state_hash);
      return result;
    },
    async remove(accountId, ...rest) {
      const result = await ledger.remove(accountId, ...rest);
      stateHashes.written(accountId, result.state_hash);
      return result;
    },
  };
  const text: LedgerTextPort = {
    checkText(accountId, text) {
      // An account that has never stored a claim has nothing to contradict. Every verdict has
      // just read the state hash, so this answers without a query; a claim stored on another
      // instance is seen once the remembered hash expires, as for the hash itself.
      if (stateHashes.peek(accountId) === GENESIS_HASH) return [];
      return ledger.checkText(accountId, text).then(textCheckFindings);
    },
  };
  return { service, state: stateHashes, text };
}
