import { seedFromEnv } from './fast-check-seed.ts';

/** Prints the property tests' seed once per run, and fixes a drawn one for every test file. */
export default function setup(): void {
  const seed = seedFromEnv(process.env.FC_SEED);
  process.env.FC_SEED = String(seed);
  process.stderr.write(
    `fast-check seed ${seed} (set FC_SEED to replace it, FC_SEED=random for a fresh one)\n`,
  );
}
