import { type Kysely, sql } from 'kysely';
import type { Db } from '../../../db/database.ts';
import type { Database } from '../../../db/schema.ts';
import { FUNCTION_WORDS } from '../conflicts/lexicon.ts';
import { normaliseWords } from '../embeddings/hash.ts';

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
}

const MAX_QUERY_TERMS = 32;

/**
 * The query's content words, for an OR query: an AND of every word would miss paraphrases, and
 * function words would match nearly every claim. Only letters and digits survive, so nothing
 * the user typed can act as query syntax.
 */
export function queryTerms(query: string): string[] {
  const words = normaliseWords(query).filter((w) => /^[\p{L}\p{N}]+$/u.test(w) && !FUNCTION_WORDS.has(w));
  return [...new Set(words)].slice(0, MAX_QUERY_TERMS);
}

export function fts5Index(db: Db): FullTextIndex {
  return {
    async add(trx, items) {
      for (const i of items)
        await sql`insert into claims_fts (rowid, claim) values (${i.rowkey}, ${i.text})`.execute(trx);
    },
    async remove(trx, rowkeys) {
      for (const r of rowkeys) await sql`delete from claims_fts where rowid = ${r}`.execute(trx);
    },
    async search(accountId, query, k) {
      const terms = queryTerms(query);
      if (terms.length === 0) return [];
      const match = terms.map((t) => `"${t}"`).join(' OR ');
      const rows = await sql<{ rowkey: number; score: number }>`
        select claims.rowkey as rowkey, -bm25(claims_fts) as score
        from claims_fts join claims on claims.rowkey = claims_fts.rowid
        where claims_fts match ${match} and claims.account_id = ${accountId} and claims.status = 'active'
        order by bm25(claims_fts) limit ${k}`.execute(db.kysely);
      return rows.rows.map((r) => ({ rowkey: Number(r.rowkey), score: r.score }));
    },
  };
}

/** PostgreSQL keeps `claims.tsv` as a generated column with a GIN index: nothing to write. */
export function tsvectorIndex(db: Db): FullTextIndex {
  return {
    async add() {},
    async remove() {},
    async search(accountId, query, k) {
      const terms = queryTerms(query);
      if (terms.length === 0) return [];
      const tsquery = terms.join(' | ');
      const rows = await sql<{ rowkey: string | number; score: number }>`
        select rowkey, ts_rank_cd(tsv, q) as score
        from claims, to_tsquery('english', ${tsquery}) q
        where account_id = ${accountId} and status = 'active' and tsv @@ q
        order by score desc, rowkey limit ${k}`.execute(db.kysely);
      return rows.rows.map((r) => ({ rowkey: Number(r.rowkey), score: Number(r.score) }));
    },
  };
}

export function createFullTextIndex(db: Db): FullTextIndex {
  return db.dialect === 'sqlite' ? fts5Index(db) : tsvectorIndex(db);
}
