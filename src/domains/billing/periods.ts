/** Billing arithmetic on UTC calendar months. */
import { monthStart, nextMonthStart } from '../../lib/utc-month.ts';

/** The same instant one month later, clamped to the end of a shorter month (Jan 31 → Feb 28). */
export function addMonth(at: Date): Date {
  const y = at.getUTCFullYear();
  const m = at.getUTCMonth() + 1;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const d = new Date(at);
  d.setUTCFullYear(y, m, Math.min(at.getUTCDate(), lastDay));
  return d;
}

/** The monthly period, counted from `start`, that contains `now`. */
export function currentMonthlyPeriod(start: Date, now: Date): { start: Date; end: Date } {
  let from = start;
  let to = addMonth(from);
  for (let i = 0; to <= now && i < 1200; i++) {
    from = to;
    to = addMonth(from);
  }
  return { start: from, end: to };
}

export interface MonthlyCharge {
  amount_usd: number;
  /** Whether the plan was active for only part of the month, so the amount is a share of the price. */
  prorated: boolean;
  /** From when in the month the plan counts (the month's start, or when it became active). */
  from: Date;
  /** The counted part of the month, 0 to 1. */
  share: number;
}

/**
 * What a monthly price costs for the calendar month of `now`: the whole price when the plan was
 * active from the month's start, else the share of the month from `activeSince` to its end.
 */
export function monthlyCharge(priceUsd: number, activeSince: Date | undefined, now: Date): MonthlyCharge {
  const start = monthStart(now);
  const end = nextMonthStart(now);
  const from = activeSince === undefined || activeSince < start ? start : activeSince;
  const share = Math.max(0, end.getTime() - from.getTime()) / (end.getTime() - start.getTime());
  return {
    amount_usd: priceUsd === 0 ? 0 : Math.round(priceUsd * share * 100) / 100,
    prorated: priceUsd > 0 && share < 1,
    from,
    share: Math.round(share * 10_000) / 10_000,
  };
}
