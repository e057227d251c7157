import { buildIfStale } from '../../scripts/lib/arbiter-process.ts';

export { BIN, type Started, serve } from '../../scripts/lib/arbiter-process.ts';

// The CLI runs the compiled build: bring dist/ up to date with the sources first (once per file).
buildIfStale();
