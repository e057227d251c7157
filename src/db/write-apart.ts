import { type Kysely, sql } from 'kysely';
import { isDatabaseUnavailable } from './database.ts';
import type { Database } from './schema.ts';

/** An item of a batch the database refused even when written alone, and what it said. */
export interface Refusal {
  id: string;
  reason: string;
}

/**
 * Writes a batch inside the caller's transaction `trx` so that one bad item fails only itself:
 * the whole batch first, and if the database refuses it, each item alone under its own
 * savepoint. An item refused alone (a text PostgreSQL cannot store, a broken constraint) is
 * rolled back and returned; the others commit with the transaction. Batches mix the requests of
 * many accounts, and one account's bad row must not fail the others. A lost connection is no
 * item's fault: it fails the whole transaction, as before.
 */
export async function writeApart<T extends { id: string }>(
  trx: Kysely<Database>,
  items: readonly T[],
  write: (items: readonly T[]) => Promise<void>,
): Promise<Refusal[]> {
  if ((await attempt(trx, () => write(items))).ok) return [];
  const refused: Refusal[] = [];
  for (const item of items) {
    const result = await attempt(trx, () => write([item]));
    if (!result.ok) refused.push({ id: item.id, reason: reasonOf(result.error) });
  }
  return refused;
}

/** Runs `fn` under a savepoint: kept if it succeeds, rolled back (and the error returned) if not. */
async function attempt(
  trx: Kysely<Database>,
  fn: () => Promise<void>,
): Promise<{ ok: true } | { ok: false; error: unknown }> {
  await sql`savepoint write_apart`.execute(trx);
  try {
    await fn();
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw error;
    // Rolling back to a savepoint keeps it on both databases' stacks: released too.
    await sql`rollback to savepoint write_apart`.execute(trx);
    await sql`release savepoint write_apart`.execute(trx);
    return { ok: false, error };
  }
  await sql`release savepoint write_apart`.execute(trx);
  return { ok: true };
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
