/**
 * A read-only set of words held as one string and two typed arrays, so that a lexicon of 150,000
 * words costs a few megabytes the garbage collector never walks, instead of a `Set` of 150,000
 * strings (~10 times the memory, and a major collection that visits each of them).
 *
 * Words are numbered in the order given; `id(word)` finds one with an open-addressing hash over
 * its UTF-16 code units (FNV-1a, linear probing, a table at most half full), comparing code units
 * in place: a look-up allocates nothing.
 */
export class WordTable {
  /** The words, each followed by `\n`. */
  private readonly text: string;
  /** Where word `i` starts in `text`; `starts[size]` is the text's length. */
  private readonly starts: Uint32Array;
  /** Slot → word id + 1, 0 for an empty slot. */
  private readonly slots: Uint32Array;
  private readonly mask: number;

  /** `joined`: the words, each followed by `\n` (none may contain one). */
  constructor(joined: string) {
    this.text = joined;
    let count = 0;
    for (let at = joined.indexOf('\n'); at >= 0; at = joined.indexOf('\n', at + 1)) count++;
    const starts = new Uint32Array(count + 1);
    for (let i = 0, at = 0; i < count; i++) {
      starts[i] = at;
      at = joined.indexOf('\n', at) + 1;
    }
    starts[count] = joined.length;
    this.starts = starts;
    let capacity = 16;
    while (capacity < count * 2) capacity *= 2;
    this.mask = capacity - 1;
    this.slots = new Uint32Array(capacity);
    for (let i = 0; i < count; i++) {
      let slot = this.hashAt(starts[i]!, starts[i + 1]! - 1) & this.mask;
      while (this.slots[slot] !== 0) slot = (slot + 1) & this.mask;
      this.slots[slot] = i + 1;
    }
  }

  static of(words: Iterable<string>): WordTable {
    let joined = '';
    for (const w of words) joined += `${w}\n`;
    return new WordTable(joined);
  }

  get size(): number {
    return this.starts.length - 1;
  }

  word(id: number): string {
    return this.text.slice(this.starts[id]!, this.starts[id + 1]! - 1);
  }

  /** The word's number, or -1. */
  id(word: string): number {
    return this.idOf(word, 0, word.length);
  }

  /**
   * The number of `s.slice(from, to)` (with `A`–`Z` read as `a`–`z` when `foldAscii`), without
   * making that string; -1 when absent.
   */
  idOf(s: string, from: number, to: number, foldAscii = false): number {
    const fold = foldAscii ? 32 : 0;
    let h = 0x811c9dc5;
    for (let i = from; i < to; i++) {
      const c = s.charCodeAt(i);
      h = Math.imul(h ^ (c >= 65 && c <= 90 ? c + fold : c), 0x01000193);
    }
    const { slots, starts, text, mask } = this;
    const length = to - from;
    for (let slot = (h >>> 0) & mask; ; slot = (slot + 1) & mask) {
      const entry = slots[slot]!;
      if (entry === 0) return -1;
      const start = starts[entry - 1]!;
      if (starts[entry]! - 1 - start !== length) continue;
      let i = 0;
      for (; i < length; i++) {
        const c = s.charCodeAt(from + i);
        if (text.charCodeAt(start + i) !== (c >= 65 && c <= 90 ? c + fold : c)) break;
      }
      if (i === length) return entry - 1;
    }
  }

  has(word: string): boolean {
    return this.id(word) >= 0;
  }

  private hashAt(from: number, to: number): number {
    let h = 0x811c9dc5;
    for (let i = from; i < to; i++) h = Math.imul(h ^ this.text.charCodeAt(i), 0x01000193);
    return h >>> 0;
  }
}
