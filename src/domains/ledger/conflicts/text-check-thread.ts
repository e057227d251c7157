import { Worker } from 'node:worker_threads';
import { WORKER_RESOURCE_LIMITS } from '../../../lib/worker-limits.ts';
import { type ScrubOptions, scrub } from '../pii/scrubber.ts';
import { type Fact, passagesOf, type TextConflict, TextFactChecker } from './text-check.ts';

/**
 * Where a long text is checked: a worker thread of its own, so that scrubbing and checking a
 * megabyte (a few hundred milliseconds of CPU, with the garbage it makes) happens beside the
 * request loop instead of in slices of it. The thread starts on the first text check of a
 * process; until it is ready, or if it dies, the same work runs here in slices of
 * `sliceMs` that give the event loop a turn between them.
 */

export interface PassagesOutcome {
  conflicts: TextConflict[];
  /** The work budget ran out before the end of the text. */
  exhausted: boolean;
}

export interface TextCheckJob {
  id: number;
  text: string;
  facts: Fact[];
  /** The account's scrubbing (phone region, pseudonym key), as its claims were scrubbed. */
  options: ScrubOptions;
}

/**
 * A text that reaches every detector and the checker's analysis. The first scrub of a process
 * loads the name lexicon and WordNet and compiles the detectors (~0.2 s); a thread does it before
 * it says ready.
 */
export const WARM_UP_TEXT =
  'Maria Lopez lives at 12 Main Street, Springfield. Call 020 7946 0958 on Sundays.';

export type TextCheckReply = { id: number } & (PassagesOutcome | { error: string });

/**
 * Scrubs and checks `text` passage by passage against `facts` under the default work budget.
 * Offsets of the conflicts are in the scrubbed text. `turn` is awaited before each step.
 */
export async function checkPassages(
  text: string,
  facts: readonly Fact[],
  turn: () => Promise<void> = async () => undefined,
  options: ScrubOptions = {},
): Promise<PassagesOutcome> {
  const checker = new TextFactChecker(facts);
  let offset = 0;
  for (const { start, end } of passagesOf(text)) {
    await turn();
    const scrubbed = scrub(text.slice(start, end), options);
    checker.scrubbed(end - start, scrubbed.found.PHONE);
    await turn();
    if (!checker.check(scrubbed.text, offset)) return { conflicts: checker.conflicts, exhausted: true };
    offset += scrubbed.text.length;
  }
  return { conflicts: checker.conflicts, exhausted: false };
}

interface Waiting {
  resolve: (outcome: PassagesOutcome) => void;
  reject: (err: Error) => void;
}

class TextCheckThread {
  private worker: Worker | undefined;
  private ready = false;
  private readonly readyWaiters: Array<() => void> = [];
  private dead = false;
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();

  /** Starts the thread if it is not running; returns whether it can take a job now. */
  available(): boolean {
    if (this.dead) return false;
    if (!this.worker) this.start();
    return this.ready;
  }

  /** Resolves once the thread can take jobs (or is known dead, when the work stays here). */
  whenReady(): Promise<void> {
    if (!this.available() && !this.dead) return new Promise((resolve) => this.readyWaiters.push(resolve));
    return Promise.resolve();
  }

  run(text: string, facts: readonly Fact[], options: ScrubOptions): Promise<PassagesOutcome> {
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.waiting.set(id, { resolve, reject });
      this.worker!.ref();
      const job: TextCheckJob = { id, text, facts: facts.map((f) => ({ id: f.id, text: f.text })), options };
      this.worker!.postMessage(job);
    });
  }

  private start(): void {
    // From the sources a shim registers the TypeScript loader; the build starts the compiled worker.
    const script = import.meta.url.endsWith('.ts') ? './text-check-entry.js' : './text-check-worker.js';
    const worker = new Worker(new URL(script, import.meta.url), {
      // The entry registers its own loader; the parent's flags (a test runner's, say) stay out.
      execArgv: [],
      resourceLimits: WORKER_RESOURCE_LIMITS,
    });
    this.worker = worker;
    worker.unref();
    worker.on('message', (reply: TextCheckReply | { ready: true }) => {
      if ('ready' in reply) {
        this.ready = true;
        for (const wake of this.readyWaiters.splice(0)) wake();
        return;
      }
      const waiting = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if (this.waiting.size === 0) worker.unref();
      if (!waiting) return;
      if ('error' in reply) waiting.reject(new Error(`text check thread: ${reply.error}`));
      else waiting.resolve(reply);
    });
    const died = (err: Error) => {
      this.dead = true;
      this.ready = false;
      for (const wake of this.readyWaiters.splice(0)) wake();
      for (const [id, w] of this.waiting) {
        this.waiting.delete(id);
        w.reject(err);
      }
    };
    worker.on('error', died);
    worker.on('exit', (code) => died(new Error(`text check thread exited with code ${code}`)));
  }
}

const thread = new TextCheckThread();

/**
 * Checks `text` on the text-check thread when it is ready, or here in slices of `sliceMs`.
 * Either way the same work budget applies, so the outcome is the same.
 */
export async function checkLongText(
  text: string,
  facts: readonly Fact[],
  sliceMs: number,
  options: ScrubOptions = {},
): Promise<PassagesOutcome> {
  if (thread.available()) {
    try {
      return await thread.run(text, facts, options);
    } catch {
      // A thread that died mid-job: the work is done here instead.
    }
  }
  let sliceStarted = performance.now();
  return checkPassages(
    text,
    facts,
    async () => {
      if (performance.now() - sliceStarted < sliceMs) return;
      await new Promise<void>((resolve) => setImmediate(resolve));
      sliceStarted = performance.now();
    },
    options,
  );
}

/**
 * Starts the thread now, so that the first long text finds it ready; resolves when it is (a
 * second or two of loading the sources and the lexicons on a quiet machine). The ledger calls it
 * on each text check.
 */
export function warmTextCheckThread(): Promise<void> {
  return thread.whenReady();
}

/** Loads the lexicons the checks of this thread use, so that no request pays for them. */
export function warmTextCheckHere(): void {
  const checker = new TextFactChecker([{ id: 'warm-up', text: 'The support line is closed on Sundays.' }]);
  checker.check(scrub(WARM_UP_TEXT).text);
}
