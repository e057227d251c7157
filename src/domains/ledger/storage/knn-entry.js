// The k-NN thread runs the TypeScript sources directly, like bin/arbiter.js; a worker thread
// does not inherit the loader its parent registered.
import { register } from 'tsx/esm/api';

register();
await import('./knn-worker.ts');
