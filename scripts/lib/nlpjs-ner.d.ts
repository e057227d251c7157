/** The part of `@nlpjs/ner` (which ships no types) that `compare-pii-ner.ts` uses. */
declare module '@nlpjs/ner' {
  export class Ner {
    constructor(settings?: { threshold?: number });
    addAfterLastCondition(locale: string, name: string, words: string[]): void;
    process(input: { locale: string; utterance: string }): Promise<unknown>;
  }
}
