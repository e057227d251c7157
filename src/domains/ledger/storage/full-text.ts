import { type Kysely, sql } from 'kysely';
import type { Db } from '../../../db/database.ts';
import type { Database } from '../../../db/schema.ts';
import { FUNCTION_WORDS } from '../conflicts/lexicon.ts';
import { normaliseWords } from '../embeddings/hash.ts';
import { isStopword } from '../search/lexical.ts';
import { withoutPlaceholders } from '../search/question.ts';

export interface LexicalCandidate {
  rowkey: number;
  /** Higher is better; only the order matters (it feeds rank fusion). */
  score: number;
}

/** Full-text candidates for the lexical side of hybrid search: FTS5 on SQLite, tsvector on PostgreSQL. */
export interface FullTextIndex {
  add(trx: Kysely<Database>, items: ReadonlyArray<{ rowkey: number; text: string }>): Promise<void>;
  remove(trx: Kysely<Database>, rowkeys: readonly number[]): Promise<void>;
  search(accountId: string, query: string, k: number): Promise<LexicalCandidate[]>;
  /**
   * Which of `terms` (single words, as `queryTerms` gives them) occur in at least one of the
   * account's active claims: one indexed lookup per term, stopping at the first claim.
   */
  knownTerms(accountId: string, terms: readonly string[]): Promise<Set<string>>;
}

const MAX_QUERY_TERMS = 32;

/** Terms one `knownTerms` call looks up at most. */
export const MAX_KNOWN_TERMS = MAX_QUERY_TERMS;
const lookupTerms = (terms: readonly string[]) =>
  [...new Set(terms)].filter((t) => /^[\p{L}\p{N}]+$/u.test(t)).slice(0, MAX_KNOWN_TERMS);

/**
 * How many claims one full-text query may rank, summed over its terms: ranking an OR query
 * costs one score per matching claim, so the rarest terms are kept while their claims add up to
 * at most this many. The terms left out are the most common, the ones BM25 weighs least, and the
 * vector side still sees them. At 100k claims the query "What is the p95 latency of Checkout in
 * eu-west-1?" matched 80 % of them (100 ms); with its common terms left out it ranks ~2,500
 * (5 ms). When every term matches more, none is ranked: the counts stop at this many + 1, so
 * they cannot tell which is rarest, and ranking one picked at random made the slowest searches.
 * Below this many claims nothing changes.
 */
export const MAX_TERM_CLAIMS = 5000;

/**
 * PostgreSQL's share of MAX_TERM_CLAIMS: checking and ranking a matching row costs PostgreSQL
 * about three times what it costs FTS5 (at 14k claims, ranking 2,000 rows took 7 ms against
 * FTS5's 5,000 in 5 ms), so the same time budget ranks fewer rows.
 */
export const PG_MAX_TERM_CLAIMS = 2000;

/** Term counts at or above this many claims are remembered for TERM_COUNT_TTL_MS (see `TermCounts`). */
const CACHED_COUNT_MIN = 200;
const TERM_COUNT_TTL_MS = 30_000;
const TERM_COUNTS_MAX = 20_000;

/**
 * How many of an account's claims hold a term, remembered for a while when the count is large:
 * counting a common term is the costly part of a PostgreSQL full-text search (a row fetched per
 * match, up to the budget), and a large count changes little in relative terms within the
 * lifetime. A count only decides which terms are ranked, never what a ranked claim scores. Small
 * counts are never remembered, so a term just stored (or absent a moment ago) is always counted
 * afresh and found.
 */
export class TermCounts {
  private readonly counts = new Map<string, { n: number; at: number }>();

  constructor(
    private readonly ttlMs = TERM_COUNT_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  get(accountId: string, term: string): number | undefined {
    const key = `${accountId}\u0000${term}`;
    const hit = this.counts.get(key);
    if (hit === undefined) return undefined;
    if (this.now() - hit.at < this.ttlMs) return hit.n;
    this.counts.delete(key);
    return undefined;
  }

  set(accountId: string, term: string, n: number): void {
    if (n < CACHED_COUNT_MIN) return;
    const key = `${accountId}\u0000${term}`;
    this.counts.delete(key);
    this.counts.set(key, { n, at: this.now() });
    // Oldest first (insertion order): a bounded memory whatever the vocabulary.
    if (this.counts.size > TERM_COUNTS_MAX) this.counts.delete(this.counts.keys().next().value!);
  }
}

/**
 * The query's content words, for an OR query: an AND of every word would miss paraphrases, and
 * function words would match nearly every claim. The stop words are the in-memory BM25's, so
 * both lexical rankers see the same terms. Only letters and digits survive, so nothing the user
 * typed can act as query syntax.
 */
export function queryTerms(query: string): string[] {
  const words = normaliseWords(withoutPlaceholders(query)).filter(
    (w) => /^[\p{L}\p{N}]+$/u.test(w) && !FUNCTION_WORDS.has(w) && !isStopword(w),
  );
  return [...new Set(words)].slice(0, MAX_QUERY_TERMS);
}

/**
 * The number after a hyphen in a query's words ("svc-22", "eu-west-1") as PostgreSQL's parser
 * indexes it: "svc-22" becomes the lexemes "svc" and "-22", so the query word "22" never meets
 * it and every "svc-…" claim ranks the same. Digits only, so each term is valid `to_tsquery`
 * input.
 */
export function hyphenatedNumbers(query: string): string[] {
  const parts = query.match(/(?<=[\p{L}\p{N}])-\d+(?![\p{L}\p{N}])/gu) ?? [];
  return [...new Set(parts)].slice(0, MAX_QUERY_TERMS).map((p) => `'${p}'`);
}

/**
 * The terms worth ranking: the rarest first, while the claims they match add up to at most
 * `budget` (none when even the rarest matches more). `claimsWith` may stop counting at
 * `budget + 1`.
 */
export async function selectiveTerms(
  terms: readonly string[],
  claimsWith: (term: string) => Promise<number>,
  budget = MAX_TERM_CLAIMS,
): Promise<string[]> {
  const counted: Array<{ term: string; n: number }> = [];
  for (const term of terms) counted.push({ term, n: await claimsWith(term) });
  const found = counted.filter((c) => c.n > 0).sort((a, b) => a.n - b.n);
  const kept: string[] = [];
  let total = 0;
  for (const { term, n } of found) {
    if (total + n > budget) break;
    kept.push(term);
    total += n;
  }
  return kept;
}

/**
 * SQLite: an FTS5 table keyed by claim rowkey. Unlike on PostgreSQL, a term's rarity is counted
 * over the whole database file, and `bm25()` weighs terms file-wide too: FTS5 has no account
 * column, and counting within the account through the claims table cost 2–4 ms per common term
 * at 100k claims (0.3 ms without), which search cannot afford. A SQLite file serves one
 * deployment, usually with few accounts.
 */
export function fts5Index(db: Db): FullTextIndex {
  return {
    async add(trx, items) {
      // Several rows per statement (2 parameters each, far below SQLite's limit of 32,766).
      for (let at = 0; at < items.length; at += 4000) {
        const rows = items.slice(at, at + 4000).map((i) => sql`(${i.rowkey}, ${i.text})`);
        await sql`insert into claims_fts (rowid, claim) values ${sql.join(rows)}`.execute(trx);
      }
    },
    async remove(trx, rowkeys) {
      for (const r of rowkeys) await sql`delete from claims_fts where rowid = ${r}`.execute(trx);
    },
    async search(accountId, query, k) {
      // Counting stops after MAX_TERM_CLAIMS + 1 matches, so a common term costs no more than that.
      const terms = await selectiveTerms(queryTerms(query), async (term) => {
        const counted = await sql<{ n: number }>`
          select count(*) as n from (select 1 from claims_fts where claims_fts match ${`"${term}"`} limit ${MAX_TERM_CLAIMS + 1})`.execute(
          db.kysely,
        );
        return Number(counted.rows[0]?.n ?? 0);
      });
      if (terms.length === 0) return [];
      const match = terms.map((t) => `"${t}"`).join(' OR ');
      const rows = await sql<{ rowkey: number; score: number }>`
        select claims.rowkey as rowkey, -bm25(claims_fts) as score
        from claims_fts join claims on claims.rowkey = claims_fts.rowid
        where claims_fts match ${match} and claims.account_id = ${accountId} and claims.status = 'active'
        order by bm25(claims_fts) limit ${k}`.execute(db.kysely);
      return rows.rows.map((r) => ({ rowkey: Number(r.rowkey), score: r.score }));
    },
    async knownTerms(accountId, terms) {
      const known = new Set<string>();
      for (const term of lookupTerms(terms)) {
        const found = await sql<{ one: number }>`
          select 1 as one from claims_fts join claims on claims.rowkey = claims_fts.rowid
          where claims_fts match ${`"${term}"`} and claims.account_id = ${accountId} and claims.status = 'active'
          limit 1`.execute(db.kysely);
        if (found.rows.length > 0) known.add(term);
      }
      return known;
    },
  };
}

/**
 * PostgreSQL keeps `claims.tsv` as a generated column with a GIN index: nothing to write. A term's
 * rarity is counted among the account's own claims (GIN and the account index together), so what
 * other accounts store never decides which of this account's terms are searched: counted over the
 * whole table, a word common across a fleet's tenants would be dropped from every account's
 * query, even one that has stored it once.
 */
export function tsvectorIndex(
  db: Db,
  options: { maxTermClaims?: number; termCounts?: TermCounts } = {},
): FullTextIndex {
  const budget = options.maxTermClaims ?? PG_MAX_TERM_CLAIMS;
  const remembered = options.termCounts ?? new TermCounts();
  return {
    async add() {},
    async remove() {},
    async search(accountId, query, k) {
      const candidates = [...queryTerms(query), ...hyphenatedNumbers(query)];
      if (candidates.length === 0) return [];
      const n = new Map<string, number>();
      for (const t of candidates) {
        const known = remembered.get(accountId, t);
        if (known !== undefined) n.set(t, known);
      }
      const uncounted = candidates.filter((t) => !n.has(t));
      if (uncounted.length > 0) {
        // One round trip counts every term, each count stopping after budget + 1 matches. The
        // matches come from the GIN index and are then kept to the account's: `offset 0` holds
        // the planner to that order. Without statistics (a table filled since the last analyze)
        // it walked the account's claims instead and tested each one, 18 ms a term at 10k claims
        // against 2.5 ms.
        const counted = await sql<{ term: string; n: number }>`
          select t as term, (select count(*) from (
            select 1 from (
              select account_id, status from claims where tsv @@ to_tsquery('english', t) offset 0
            ) matching
            where account_id = ${accountId} and status = 'active'
            limit ${budget + 1}) m)::int as n
          from unnest(${uncounted}::text[]) t`.execute(db.kysely);
        for (const r of counted.rows) {
          n.set(r.term, Number(r.n));
          remembered.set(accountId, r.term, Number(r.n));
        }
      }
      const terms = await selectiveTerms(candidates, async (t) => n.get(t) ?? 0, budget);
      if (terms.length === 0) return [];
      const tsquery = terms.join(' | ');
      // The selected terms' matches first, then kept to the account's (as above). Without
      // statistics the planner walked every active claim of the account instead and tested each
      // (15 ms at 14k claims for 3,700 matches); with them it reads the matches from the GIN
      // index, or scans the table while they are a large share of it (6.5 ms against 4 ms at
      // 14k claims for 2,000 matches), which the budget keeps to small tables.
      const rows = await sql<{ rowkey: string | number; score: number }>`
        select rowkey, ts_rank_cd(tsv, q) as score
        from (
          select rowkey, account_id, status, tsv from claims where tsv @@ to_tsquery('english', ${tsquery}) offset 0
        ) matching, to_tsquery('english', ${tsquery}) q
        where account_id = ${accountId} and status = 'active'
        order by score desc, rowkey limit ${k}`.execute(db.kysely);
      return rows.rows.map((r) => ({ rowkey: Number(r.rowkey), score: Number(r.score) }));
    },
    async knownTerms(accountId, terms) {
      const candidates = lookupTerms(terms);
      if (candidates.length === 0) return new Set();
      // Matches from the GIN index first, then kept to the account's (as in `search`).
      const rows = await sql<{ term: string }>`
        select t as term from unnest(${candidates}::text[]) t
        where exists (
          select 1 from (
            select account_id, status from claims where tsv @@ to_tsquery('english', t) offset 0
          ) matching
          where account_id = ${accountId} and status = 'active')`.execute(db.kysely);
      return new Set(rows.rows.map((r) => r.term));
    },
  };
}

export function createFullTextIndex(db: Db): FullTextIndex {
  return db.dialect === 'sqlite' ? fts5Index(db) : tsvectorIndex(db);
}
