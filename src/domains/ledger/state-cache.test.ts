import { describe, expect, it } from 'vitest';
import { createStateHashCache } from './state-cache.ts';

describe('state hash cache', () => {
  function setup() {
    let clock = 0;
    let stored = 'a';
    let reads = 0;
    const cache = createStateHashCache(
      async () => {
        reads++;
        return stored;
      },
      { ttlMs: 100, now: () => clock },
    );
    return {
      cache,
      reads: () => reads,
      advance: (ms: number) => {
        clock += ms;
      },
      write: (h: string) => {
        stored = h;
      },
    };
  }

  it('remembers a hash for its lifetime, then reads again', async () => {
    const s = setup();
    expect(await s.cache.currentStateHash('acct')).toBe('a');
    s.write('b');
    expect(await s.cache.currentStateHash('acct')).toBe('a');
    expect(s.reads()).toBe(1);
    s.advance(100);
    expect(await s.cache.currentStateHash('acct')).toBe('b');
    expect(s.reads()).toBe(2);
  });

  it('always reads when the caller compares against it', async () => {
    const s = setup();
    await s.cache.currentStateHash('acct');
    s.write('b');
    expect(await s.cache.currentStateHash('acct', { fresh: true })).toBe('b');
    expect(await s.cache.currentStateHash('acct')).toBe('b');
  });

  it('takes a local write at once', async () => {
    const s = setup();
    await s.cache.currentStateHash('acct');
    s.cache.written('acct', 'c');
    expect(await s.cache.currentStateHash('acct')).toBe('c');
    expect(s.reads()).toBe(1);
  });
});
