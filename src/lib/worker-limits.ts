import type { ResourceLimits } from 'node:worker_threads';

/**
 * The V8 limits of the worker threads every instance runs: the writer, the k-NN thread and the
 * text check.
 *
 * Each thread is an isolate with its own young generation, which V8 grows under load up to two
 * 16 MB semi-spaces: about 34 MB committed per thread, taken over minutes as load comes and
 * given back only when the thread idles. Measured in the PostgreSQL soak, the writer's went
 * 8 → 17 → 34 MB and the k-NN thread's 17 → 34 MB after the warm-up, which showed as RSS growth
 * nothing else accounted for. What these threads allocate per job is short-lived (a batch, a
 * query's scores), so a 4 MB semi-space (a 12 MB young generation) only means more, cheap
 * scavenges; the old generation keeps V8's default limit. The local embedder's thread keeps V8's
 * defaults: with the limit it embedded 6-8 % fewer sentences a second in batches of 64 (two runs
 * of `bench:embed` each way), and its memory is the model's.
 */
export const WORKER_RESOURCE_LIMITS: ResourceLimits = { maxYoungGenerationSizeMb: 12 };
