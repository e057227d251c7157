import { requireFreshBuild } from '../../scripts/lib/arbiter-process.ts';

export { BIN, type Started, serve } from '../../scripts/lib/arbiter-process.ts';

// The CLI runs the compiled build: these tests need `npm run build` first, and say so.
requireFreshBuild();
