/**
 * Embedding throughput per adapter:
 * `npx tsx bench/embed.ts [--embedder local|hash] [--n 512] [--workers 1]` (workers: local only, 0 = in-process).
 * Uses the STS sentences of the dev data when present, else generated sentences.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEmbedder } from '../src/domains/ledger/embeddings/factory.ts';

const arg = (name: string, fallback: string): string => {
  const at = process.argv.indexOf(name);
  return at >= 0 && process.argv[at + 1] ? process.argv[at + 1]! : fallback;
};

const kind = arg('--embedder', 'local');
const n = Number(arg('--n', '512'));
const workers = Number(arg('--workers', '1'));
const dataFile = join(
  resolve(dirname(fileURLToPath(import.meta.url)), '..'),
  '../shared/data/vault/retrieval.dev.json',
);
const sentences = existsSync(dataFile)
  ? (JSON.parse(readFileSync(dataFile, 'utf8')) as { claims: { text: string }[] }).claims.map((c) => c.text)
  : Array.from(
      { length: n },
      (_, i) => `Claim number ${i} says the service in region ${i % 7} was restarted.`,
    );
const texts = Array.from({ length: n }, (_, i) => sentences[i % sentences.length]!);

if (kind !== 'local' && kind !== 'hash') throw new Error('--embedder must be local or hash');
const loadStart = performance.now();
const embedder = await createEmbedder(kind === 'local' ? { kind, workers } : { kind });
await embedder.embed(['warm up']);
const loadMs = performance.now() - loadStart;

for (const batch of [1, 16, 64, n]) {
  const start = performance.now();
  for (let i = 0; i < texts.length; i += batch) await embedder.embed(texts.slice(i, i + batch));
  const seconds = (performance.now() - start) / 1000;
  console.log(
    `${embedder.id} workers=${kind === 'local' ? workers : '-'} batch=${batch} sentences=${n}: ${(n / seconds).toFixed(1)} sentences/s (load ${loadMs.toFixed(0)} ms)`,
  );
}
