import { sentencesOf } from './conflicts/text-check.ts';
import { checkLongText, warmTextCheckThread } from './conflicts/text-check-thread.ts';
import {
  passagesOf,
  TEXT_CHECK_MAX_CHARS,
  TEXT_CHECK_MAX_WORK,
  type TextCheckOutcome,
  type TextConflict,
  TextFactChecker,
} from './conflicts.ts';
import type { LedgerContext } from './ledger-context.ts';
import { scrub } from './pii/scrubber.ts';

/** Most recent active claims a text longer than one passage is checked against, besides those found by search. */
export const LONG_TEXT_FACTS = 1000;
/** Sentences of a text's first passage whose subject's claims are looked up for the text check. */
export const SUBJECT_SENTENCES = 16;
/** Longest run of text-check work between two turns of the event loop. */
export const TEXT_CHECK_SLICE_MS = 5;

export function createTextCheck({ deps, repo, scrubOptionsOf, embedOne, sameSubjectRowkeys }: LedgerContext) {
  return {
    /**
     * Sentences of `text` that contradict the account's relevant active claims (verdict and
     * judgment engines). Bounded at any length (ledger README, "Budgets"): the text is read in
     * passages of at most `SEGMENT_WINDOW` characters, each scrubbed and checked in turn. A text
     * longer than one passage is checked on the text-check thread (or, until it is ready, here
     * with a turn for the event loop every `TEXT_CHECK_SLICE_MS`). The facts are those a search finds for
     * the first passage and, when there is more, the account's `LONG_TEXT_FACTS` most recent
     * claims: a contradiction at the end of a long text is found like one at its start. A text
     * over `TEXT_CHECK_MAX_CHARS`, or one that would take more than `TEXT_CHECK_MAX_WORK`, is
     * answered with `unchecked` instead of a stall.
     */
    async checkText(
      accountId: string,
      text: string,
    ): Promise<TextCheckOutcome<{ id: string; text: string }>> {
      if (text.length > TEXT_CHECK_MAX_CHARS) {
        return {
          conflicts: [],
          unchecked: `the text is ${text.length} characters long; the ledger checks texts of at most ${TEXT_CHECK_MAX_CHARS}: send it in parts`,
        };
      }
      if ((await repo.head(accountId)).seq === 0) return { conflicts: [] };
      void warmTextCheckThread();
      const passages = passagesOf(text);
      const first = passages.next();
      if (first.done) return { conflicts: [] };
      // Scrubbed as the account's claims were: a name is the same pseudonym in the text and the facts.
      const scrubOptions = await scrubOptionsOf(accountId);
      const scrubbedOpening = scrub(text.slice(first.value.start, first.value.end), scrubOptions);
      const opening = scrubbedOpening.text;
      // Reads on SQLite do not give the event loop a turn by themselves.
      await new Promise<void>((resolve) => setImmediate(resolve));
      const { vector } = await embedOne(opening);
      const [nearest, lexical] = await Promise.all([
        deps.vectors.nearest(accountId, vector, 20),
        deps.fullText.search(accountId, opening, 20),
      ]);
      const sentences = [...sentencesOf(opening)].slice(0, SUBJECT_SENTENCES).map((s) => s.sentence);
      const subjects = (await sameSubjectRowkeys(accountId, sentences)).flat();
      const rows = await repo.activeByRowkeys(accountId, [
        ...new Set([...[...nearest, ...lexical].map((h) => h.rowkey), ...subjects]),
      ]);
      const facts = rows.map((r) => ({ id: r.id, text: r.claim }));
      let outcome: { conflicts: TextConflict[]; exhausted: boolean };
      if (first.value.end < text.length) {
        const found = new Set(rows.map((r) => r.rowkey));
        for (const row of await repo.recentActive(accountId, LONG_TEXT_FACTS))
          if (!found.has(row.rowkey)) facts.push({ id: row.id, text: row.claim });
        outcome = await checkLongText(text, facts, TEXT_CHECK_SLICE_MS, scrubOptions);
      } else {
        const checker = new TextFactChecker(facts);
        checker.scrubbed(first.value.end - first.value.start, scrubbedOpening.found.PHONE);
        outcome = { exhausted: !checker.check(opening), conflicts: checker.conflicts };
      }
      const { conflicts, exhausted } = outcome;
      if (!exhausted) return { conflicts };
      return {
        conflicts,
        unchecked: `the text needs more comparisons with the ledger's facts than one check may make (${TEXT_CHECK_MAX_WORK}); the rest was not checked: send it in parts`,
      };
    },
  };
}
