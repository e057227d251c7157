/**
 * Property tests run on one fixed seed, so CI judges the same cases every run; `FC_SEED`
 * replaces it (`FC_SEED=random` draws a fresh one). The run prints the seed once
 * (fast-check-seed.global.ts); a failing property prints it again with its counterexample.
 */
import fc from 'fast-check';

const DEFAULT_SEED = 20261128;

export function seedFromEnv(value: string | undefined): number {
  if (value === undefined || value === '') return DEFAULT_SEED;
  if (value === 'random') return (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;
  const seed = Number(value);
  if (!Number.isInteger(seed)) throw new Error(`FC_SEED must be an integer or "random", not ${value}`);
  return seed;
}

fc.configureGlobal({ seed: seedFromEnv(process.env.FC_SEED) });
