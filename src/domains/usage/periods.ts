/** Calendar days in UTC, as the text keys the usage tables use (months: `lib/utc-month.ts`). */

export function dayOf(at: Date): string {
  return at.toISOString().slice(0, 10);
}

let cachedSecond = -1;
let cachedDay = '';

/**
 * The UTC day (`YYYY-MM-DD`) of an epoch-millisecond time, formatted at most once per second:
 * metering asks on every request and `toISOString` would dominate its cost.
 */
export function dayOfMs(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== cachedSecond) {
    cachedSecond = second;
    cachedDay = new Date(ms).toISOString().slice(0, 10);
  }
  return cachedDay;
}
