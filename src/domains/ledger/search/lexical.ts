import { normaliseWords } from '../embeddings/hash.ts';

/**
 * Lexical side of hybrid search: content-word tokens, the overlap used by the relevance floor,
 * and an in-memory BM25 index. The storage layer ranks with FTS5 / tsvector instead; only the
 * ranks and `lexicalOverlap` flow into fusion, so both rank the same way.
 */

const STOPWORDS = new Set(
  (
    'a an the and or but if then of to in on at by for with from into onto over under about as is are was were ' +
    'be been being am it its this that these those there here has have had do does did doing i you he she we ' +
    'they me him her us them my your his our their what which who whom whose when where why how all any both ' +
    'each few more most other some such only own same so than too very can will just should would could may might ' +
    'must shall s t not no nor up down out off again further once one two'
  ).split(' '),
);

/**
 * Light suffix stripping so that "plays", "played" and "playing" meet "play", and "invoice",
 * "invoices" and "invoiced" meet "invoic". Only ever compared with other stems.
 */
export function stem(word: string): string {
  if (/\d/.test(word) || word.length <= 3) return word;
  let w = word;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (/(?:ss|x|z|ch|sh)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) w = w.slice(0, -1);
  else if (w.endsWith('ing') && w.length - 3 >= 3) w = undouble(w.slice(0, -3));
  else if (w.endsWith('ed') && w.length - 2 >= 3) w = undouble(w.slice(0, -2));
  return w.length > 3 && w.endsWith('e') ? w.slice(0, -1) : w;
}

/** "running" → "runn" → "run"; doubled l, s and z are part of the stem ("falling", "passing"). */
function undouble(w: string): string {
  const last = w[w.length - 1];
  return last && last === w[w.length - 2] && !'lsz'.includes(last) ? w.slice(0, -1) : w;
}

/** Words BM25 here ignores; the storage full-text queries leave them out too. */
export function isStopword(word: string): boolean {
  return STOPWORDS.has(word);
}

export function contentTerms(text: string): string[] {
  return normaliseWords(text)
    .filter((w) => !STOPWORDS.has(w))
    .map(stem);
}

/** Share of the query's distinct content terms found in the text, in [0, 1]. */
export function lexicalOverlap(query: string, text: string): number {
  const q = new Set(contentTerms(query));
  if (q.size === 0) return 0;
  const t = new Set(contentTerms(text));
  let shared = 0;
  for (const term of q) if (t.has(term)) shared++;
  return shared / q.size;
}

export interface LexicalHit {
  id: string;
  /** Higher is better. */
  score: number;
}

export class Bm25Index {
  private readonly postings = new Map<string, Map<string, number>>();
  private readonly lengths = new Map<string, number>();
  private totalLength = 0;

  constructor(
    private readonly k1 = 1.2,
    private readonly b = 0.75,
  ) {}

  get size(): number {
    return this.lengths.size;
  }

  add(id: string, text: string): void {
    if (this.lengths.has(id)) this.remove(id);
    const terms = contentTerms(text);
    this.lengths.set(id, terms.length);
    this.totalLength += terms.length;
    for (const term of terms) {
      let posting = this.postings.get(term);
      if (!posting) {
        posting = new Map();
        this.postings.set(term, posting);
      }
      posting.set(id, (posting.get(id) ?? 0) + 1);
    }
  }

  remove(id: string): void {
    const length = this.lengths.get(id);
    if (length === undefined) return;
    this.lengths.delete(id);
    this.totalLength -= length;
    for (const [term, posting] of this.postings) {
      if (posting.delete(id) && posting.size === 0) this.postings.delete(term);
    }
  }

  search(query: string, limit: number): LexicalHit[] {
    const n = this.lengths.size;
    if (n === 0) return [];
    const avg = this.totalLength / n || 1;
    const scores = new Map<string, number>();
    for (const term of new Set(contentTerms(query))) {
      const posting = this.postings.get(term);
      if (!posting) continue;
      const idf = Math.log(1 + (n - posting.size + 0.5) / (posting.size + 0.5));
      for (const [id, tf] of posting) {
        const len = this.lengths.get(id) ?? 0;
        const s = (idf * tf * (this.k1 + 1)) / (tf + this.k1 * (1 - this.b + (this.b * len) / avg));
        scores.set(id, (scores.get(id) ?? 0) + s);
      }
    }
    return [...scores]
      .map(([id, score]) => ({ id, score }))
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
      .slice(0, limit);
  }
}
