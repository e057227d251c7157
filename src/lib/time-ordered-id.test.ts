import { describe, expect, it } from 'vitest';
import { timeOrderedId } from './time-ordered-id.ts';

describe('timeOrderedId', () => {
  it('is a version 7, variant 10 UUID', () => {
    expect(timeOrderedId()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
  it('sorts by the time it was made and carries that time', () => {
    const a = timeOrderedId(1_700_000_000_000);
    const b = timeOrderedId(1_700_000_000_001);
    expect(a < b).toBe(true);
    expect(Number.parseInt(a.replace(/-/g, '').slice(0, 12), 16)).toBe(1_700_000_000_000);
  });
  it('differs between ids of the same millisecond', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => timeOrderedId(1_700_000_000_000)));
    expect(ids.size).toBe(1000);
  });
});
