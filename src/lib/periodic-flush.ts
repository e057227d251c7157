/**
 * Writes a buffer every `intervalMs`, on demand, and once more on `stop()`, one write at a time:
 * a flush asked for while another runs queues behind it, so no batch is written twice and
 * nothing buffered is lost on a graceful shutdown. Used by every in-memory batch writer
 * (usage counts, audit events).
 */
export class PeriodicFlush {
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly intervalMs: number,
    private readonly write: () => Promise<void>,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.flush(), this.intervalMs);
    this.timer.unref();
  }

  flush(): Promise<void> {
    this.chain = this.chain.then(() => this.write());
    return this.chain;
  }

  /** Runs `fn` while no write is in progress (reads that must not race a write). */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.chain.then(fn);
    this.chain = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }
}
