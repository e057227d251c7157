/**
 * Person-name and street-address finders side by side on the presidio synthetic sentences
 * (`pii/synth.dev.json`): recall per entity type (a gold span counts when a found span of the
 * same type overlaps it), false spans (found spans overlapping no gold span of their type) per
 * 100 texts, and time per MB of text. The choice and the table are in the ledger README.
 *
 *   npx tsx scripts/compare-pii-ner.ts [--data ../shared/data] [--errors compromise|wink|nlpjs|scrubber]
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ner } from '@nlpjs/ner';
import nlp from 'compromise';
import model from 'wink-eng-lite-web-model';
import winkNlp from 'wink-nlp';
import { detectPii } from '../src/domains/ledger/pii/scrubber.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name: string, fallback: string): string => {
  const at = process.argv.indexOf(name);
  return at >= 0 && process.argv[at + 1] ? process.argv[at + 1]! : fallback;
};
const dataDir = resolve(arg('--data', join(repoRoot, '../shared/data')));
const showErrorsOf = arg('--errors', '');

type Kind = 'PERSON' | 'STREET_ADDRESS';
interface Found {
  type: Kind;
  start: number;
  end: number;
}
interface Sample {
  full_text: string;
  spans: { entity_type: string; start_position: number; end_position: number }[];
}

const samples = JSON.parse(readFileSync(join(dataDir, 'pii/synth.dev.json'), 'utf8')) as Sample[];

// --- candidates ----------------------------------------------------------------------------

/** compromise: `people()` for persons (it has no street-address matcher). */
function withCompromise(text: string): Found[] {
  const out: Found[] = [];
  for (const o of nlp(text).people().out('offset') as { offset: { start: number; length: number } }[]) {
    out.push({ type: 'PERSON', start: o.offset.start, end: o.offset.start + o.offset.length });
  }
  return out;
}

/**
 * wink-nlp with its npm-shipped English model: the model's entity recogniser has no PERSON
 * type (dates, numbers, money, e-mail, URLs…), so runs of PROPN tokens stand for names.
 */
const wink = winkNlp(model);
function withWink(text: string): Found[] {
  const doc = wink.readDoc(text);
  const values = doc.tokens().out(wink.its.value) as string[];
  const pos = doc.tokens().out(wink.its.pos) as string[];
  const out: Found[] = [];
  let cursor = 0;
  let run: Found | undefined;
  values.forEach((v, i) => {
    const at = text.indexOf(v, cursor);
    const start = at >= 0 ? at : cursor;
    cursor = start + v.length;
    if (pos[i] === 'PROPN') {
      if (run) run.end = cursor;
      else run = { type: 'PERSON', start, end: cursor };
    } else if (run) {
      out.push(run);
      run = undefined;
    }
  });
  if (run) out.push(run);
  return out;
}

/**
 * @nlpjs/ner: rules only (enumerations, regular expressions, text after / between words); it
 * ships no name or address model. The usual setup for names: what follows "my name is", "I am",
 * "Mr.", "Ms.", "Dr.", up to the sentence end.
 */
const ner = new Ner({ threshold: 0.8 });
ner.addAfterLastCondition('en', 'person', ['my name is', 'i am', 'mr.', 'ms.', 'mrs.', 'dr.', 'name:']);
async function withNlpjs(text: string): Promise<Found[]> {
  const result = (await ner.process({ locale: 'en', utterance: text })) as {
    entities: { entity: string; start: number; end: number }[];
  };
  return result.entities
    .filter((e) => e.entity === 'person')
    .map((e) => ({ type: 'PERSON' as const, start: e.start, end: e.end + 1 }));
}

/** What the ledger scrubs (`detectPii`), PERSON and STREET_ADDRESS spans. */
function withScrubber(text: string): Found[] {
  const out: Found[] = [];
  for (const s of detectPii(text)) {
    if (s.type === 'PERSON') out.push({ type: 'PERSON', start: s.start, end: s.end });
    else if (s.type === 'ADDRESS') out.push({ type: 'STREET_ADDRESS', start: s.start, end: s.end });
  }
  return out;
}

// --- scoring -------------------------------------------------------------------------------

async function score(name: string, find: (text: string) => Found[] | Promise<Found[]>): Promise<string> {
  const gold = { PERSON: 0, STREET_ADDRESS: 0 };
  const hit = { PERSON: 0, STREET_ADDRESS: 0 };
  const found = { PERSON: 0, STREET_ADDRESS: 0 };
  let falseSpans = 0;
  let chars = 0;
  let ms = 0;
  // Loading a model or lexicon is not part of the per-MB time.
  await find(samples[0]!.full_text);
  for (const s of samples) {
    const t0 = performance.now();
    const spans = await find(s.full_text);
    ms += performance.now() - t0;
    chars += s.full_text.length;
    for (const g of s.spans) {
      const type = g.entity_type as Kind;
      if (type !== 'PERSON' && type !== 'STREET_ADDRESS') continue;
      gold[type]++;
      if (spans.some((f) => f.type === type && f.start < g.end_position && f.end > g.start_position))
        hit[type]++;
      else if (showErrorsOf === name)
        console.log(`  FN ${type}: ${s.full_text.slice(g.start_position, g.end_position)}`);
    }
    for (const f of spans) {
      found[f.type]++;
      const ok = s.spans.some(
        (g) => g.entity_type === f.type && f.start < g.end_position && f.end > g.start_position,
      );
      if (!ok) {
        falseSpans++;
        if (showErrorsOf === name)
          console.log(
            `  FP ${f.type}: ${JSON.stringify(s.full_text.slice(f.start, f.end))} in ${JSON.stringify(s.full_text.slice(0, 120))}`,
          );
      }
    }
  }
  const r = (t: Kind) => (gold[t] ? (hit[t] / gold[t]).toFixed(3) : '-');
  const msPerMb = (ms / chars) * 1e6;
  return `| ${name} | ${r('PERSON')} | ${found.STREET_ADDRESS ? r('STREET_ADDRESS') : '—'} | ${falseSpans} | ${((100 * falseSpans) / samples.length).toFixed(1)} | ${(msPerMb / 1000).toFixed(2)} s |`;
}

console.log(`${samples.length} texts from ${join(dataDir, 'pii/synth.dev.json')}`);
console.log('| finder | PERSON recall | STREET_ADDRESS recall | false spans | per 100 texts | time per MB |');
console.log('|---|---|---|---|---|---|');
console.log(await score('compromise', withCompromise));
console.log(await score('wink', withWink));
console.log(await score('nlpjs', withNlpjs));
console.log(await score('scrubber', withScrubber));
