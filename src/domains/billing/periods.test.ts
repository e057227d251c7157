import { describe, expect, it } from 'vitest';
import { addMonth, currentMonthlyPeriod, monthlyCharge } from './periods.ts';

const d = (iso: string) => new Date(iso);

describe('billing periods', () => {
  it.each([
    ['2026-01-15T10:00:00.000Z', '2026-02-15T10:00:00.000Z'],
    ['2026-01-31T00:00:00.000Z', '2026-02-28T00:00:00.000Z'],
    ['2028-01-31T00:00:00.000Z', '2028-02-29T00:00:00.000Z'],
    ['2026-12-20T00:00:00.000Z', '2027-01-20T00:00:00.000Z'],
  ])('one month after %s is %s', (from, to) => {
    expect(addMonth(d(from)).toISOString()).toBe(to);
  });

  it('rolls a monthly period forward to the one containing now', () => {
    const p = currentMonthlyPeriod(d('2026-01-10T00:00:00Z'), d('2026-03-12T00:00:00Z'));
    expect([p.start.toISOString(), p.end.toISOString()]).toEqual([
      '2026-03-10T00:00:00.000Z',
      '2026-04-10T00:00:00.000Z',
    ]);
  });

  it.each([
    [99, undefined, '2026-11-22T00:00:00Z', 99, false, '2026-11-01T00:00:00.000Z'],
    [99, '2026-10-01T00:00:00Z', '2026-11-22T00:00:00Z', 99, false, '2026-11-01T00:00:00.000Z'],
    [99, '2026-11-16T00:00:00Z', '2026-11-22T00:00:00Z', 49.5, true, '2026-11-16T00:00:00.000Z'],
    [99, '2026-11-23T00:00:00Z', '2026-11-25T00:00:00Z', 26.4, true, '2026-11-23T00:00:00.000Z'],
    [0, '2026-11-16T00:00:00Z', '2026-11-22T00:00:00Z', 0, false, '2026-11-16T00:00:00.000Z'],
  ])(
    'price %d active since %s costs in the month of %s: %d (prorated: %s, from %s)',
    (price, since, now, cost, prorated, from) => {
      const charge = monthlyCharge(price, since ? d(since) : undefined, d(now));
      expect(charge).toMatchObject({ amount_usd: cost, prorated });
      expect(charge.from.toISOString()).toBe(from);
    },
  );
});
