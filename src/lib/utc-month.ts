/**
 * UTC calendar months: the one place month boundaries are computed. Usage tables key a month as
 * `YYYY-MM`; billing and quotas need its first instant and the next month's.
 */

/** The first instant of the UTC month of `at`, shifted by `offset` months. */
export function monthStart(at: Date, offset = 0): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + offset, 1));
}

/** The first instant of the UTC month after the one of `at`. */
export function nextMonthStart(at: Date): Date {
  return monthStart(at, 1);
}

/** The UTC month of `at` as the `YYYY-MM` key the usage tables use. */
export function monthOf(at: Date): string {
  return at.toISOString().slice(0, 7);
}

/** The first instant of a `YYYY-MM` month key, shifted by `offset` months. */
export function startOfMonthKey(month: string, offset = 0): Date {
  const [year, mon] = month.split('-').map(Number);
  return monthStart(new Date(Date.UTC(year ?? 1970, (mon ?? 1) - 1, 1)), offset);
}
