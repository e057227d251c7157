import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { SecretBox } from '../../../lib/secret-box.ts';

/**
 * The account's pseudonyms and the words they stand for (`ledger_names`), each sealed with the
 * server's secret box and bound to the account and pseudonym: stored claims, vectors, full text,
 * the chain, logs, audit and webhooks only ever hold `<PERSON1a2b3c4d>`; the owning account reads
 * claims with its names as written. Forgetting a person deletes their words' rows: the claims and
 * the chain stay as they are, and no read can turn those pseudonyms back into the name.
 */

const PSEUDONYM = /<PERSON[0-9a-f]{8}>/g;
/** Pseudonyms looked up in one statement. */
const LOOKUP_BATCH = 500;

const contextOf = (accountId: string, pseudonym: string) => `ledger-name:${accountId}:${pseudonym}`;

export function createNameVault(db: Kysely<Database>, box: SecretBox) {
  return {
    /** Remembers each pseudonym's word the first time it is seen (inside the store's transaction). */
    async record(
      trx: Transaction<Database>,
      accountId: string,
      names: ReadonlyArray<{ pseudonym: string; word: string }>,
      at: string,
    ): Promise<void> {
      const unique = new Map(names.map((n) => [n.pseudonym, n.word]));
      if (unique.size === 0) return;
      await trx
        .insertInto('ledger_names')
        .values(
          [...unique].map(([pseudonym, word]) => ({
            account_id: accountId,
            pseudonym,
            sealed: box.seal(word, contextOf(accountId, pseudonym)),
            created_at: at,
          })),
        )
        .onConflict((oc) => oc.columns(['account_id', 'pseudonym']).doNothing())
        .execute();
    },

    /** The account's words for the pseudonyms in `texts` (forgotten ones are absent). */
    async wordsFor(accountId: string, texts: readonly string[]): Promise<Map<string, string>> {
      const wanted = [...new Set(texts.flatMap((t) => t.match(PSEUDONYM) ?? []))];
      const words = new Map<string, string>();
      for (let i = 0; i < wanted.length; i += LOOKUP_BATCH) {
        const rows = await db
          .selectFrom('ledger_names')
          .select(['pseudonym', 'sealed'])
          .where('account_id', '=', accountId)
          .where('pseudonym', 'in', wanted.slice(i, i + LOOKUP_BATCH))
          .execute();
        for (const r of rows) words.set(r.pseudonym, box.open(r.sealed, contextOf(accountId, r.pseudonym)));
      }
      return words;
    },

    /** Deletes the rows of these pseudonyms; returns how many there were. */
    async forget(
      trx: Transaction<Database>,
      accountId: string,
      pseudonyms: readonly string[],
    ): Promise<number> {
      if (pseudonyms.length === 0) return 0;
      const result = await trx
        .deleteFrom('ledger_names')
        .where('account_id', '=', accountId)
        .where('pseudonym', 'in', [...pseudonyms])
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type NameVault = ReturnType<typeof createNameVault>;

/** `text` with each pseudonym in `words` replaced by its word. */
export function revealNames(text: string, words: ReadonlyMap<string, string>): string {
  if (words.size === 0) return text;
  return text.replace(PSEUDONYM, (p) => words.get(p) ?? p);
}
