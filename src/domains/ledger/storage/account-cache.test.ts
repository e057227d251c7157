import { describe, expect, it } from 'vitest';
import { AccountCache } from './account-cache.ts';

describe('AccountCache', () => {
  const cache = () => new AccountCache<number[]>((v) => v.length, { maxAccounts: 3, maxBytes: 10 });

  it('lets the least recently used accounts go beyond the byte limit', () => {
    const c = cache();
    c.set('a', [1, 2, 3, 4]);
    c.set('b', [1, 2, 3, 4]);
    expect(c.get('a')).toBeDefined(); // a is now more recent than b
    c.set('c', [1, 2, 3]);
    expect(c.get('b')).toBeUndefined();
    expect(c.get('a')).toEqual([1, 2, 3, 4]);
    expect(c.heldBytes).toBe(7);
  });

  it('lets the least recently used accounts go beyond the account limit', () => {
    const c = cache();
    for (const id of ['a', 'b', 'c', 'd']) c.set(id, [1]);
    expect(c.size).toBe(3);
    expect(c.get('a')).toBeUndefined();
    expect(c.heldBytes).toBe(3);
  });

  it('keeps the account just stored even alone over the limit, and re-measures it when stored again', () => {
    const c = cache();
    c.set('a', [1]);
    c.set(
      'big',
      Array.from({ length: 25 }, () => 0),
    );
    expect(c.get('a')).toBeUndefined();
    expect(c.get('big')).toHaveLength(25);
    expect(c.heldBytes).toBe(25);
    c.set('big', [1, 2]);
    expect(c.heldBytes).toBe(2);
    c.delete('big');
    expect(c.heldBytes).toBe(0);
  });
});
