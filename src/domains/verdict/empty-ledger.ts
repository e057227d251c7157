import { GENESIS_HASH } from '../../db/chain.ts';
import type { LedgerStatePort, LedgerTextPort } from './service.ts';

// Stand-ins until the claim ledger implements these ports: an account with no ledger entries has
// the genesis state and no facts an agent could contradict. `src/container.ts` wires them as
// `ledgerState` and `ledgerText`; the ledger replaces them there.

const genesis = Promise.resolve(GENESIS_HASH);

export const emptyLedgerState: LedgerStatePort = {
  currentStateHash: () => genesis,
};

export const emptyLedgerText: LedgerTextPort = {
  checkText: () => [],
};
