import { monthOf, monthStart, nextMonthStart } from '../../lib/utc-month.ts';
import type { Plan } from '../plans/index.ts';
import type { UsageMeter, UsageRepo } from '../usage/index.ts';
import { monthlyCharge } from './periods.ts';
import type { BillingRepo } from './repo.ts';
import type { SubscriptionStatus } from './types.ts';

/** Usage is counted per calendar month in UTC, whatever the subscription's own dates. */
export function usagePeriod(at: Date) {
  return {
    start: monthStart(at).toISOString(),
    end: nextMonthStart(at).toISOString(),
    basis: 'calendar_month_utc' as const,
    note: 'API calls are counted per calendar month in UTC, from the 1st at 00:00 UTC to the 1st of the next month, whatever the dates of the subscription period.',
  };
}

/**
 * The account's calls of the calendar month of `at` (written and still pending), by key, day and
 * endpoint, with what the plan costs for that month.
 */
export async function usageReport(
  deps: {
    usage: Pick<UsageRepo, 'monthlyByKey' | 'dailyForAccount'>;
    meter: Pick<UsageMeter, 'pendingForAccountDaily' | 'pendingForAccountMonthly'>;
    keyNames: BillingRepo['keyNames'];
  },
  accountId: string,
  status: {
    status: SubscriptionStatus;
    subscribed_since: string | null;
    subscription_period: { start: string; end: string } | null;
  },
  plan: Plan,
  at: Date,
) {
  const month = monthOf(at);
  const start = monthStart(at);
  const end = nextMonthStart(at);
  const [monthly, daily, keys] = await Promise.all([
    deps.usage.monthlyByKey(accountId, month),
    deps.usage.dailyForAccount(accountId, `${month}-01`, `${month}-31`),
    deps.keyNames(accountId),
  ]);
  const byKey = new Map<string, number>();
  for (const m of monthly) byKey.set(m.key_id, (byKey.get(m.key_id) ?? 0) + Number(m.calls));
  for (const m of deps.meter.pendingForAccountMonthly(accountId, month)) {
    byKey.set(m.keyId, (byKey.get(m.keyId) ?? 0) + m.calls);
  }
  const byDay = new Map<string, number>();
  const byEndpoint = new Map<string, number>();
  const pendingDaily = deps.meter
    .pendingForAccountDaily(accountId)
    .filter((d) => d.day.startsWith(month))
    .map((d) => ({ day: d.day, endpoint: d.endpoint, calls: d.calls }));
  for (const d of [...daily, ...pendingDaily]) {
    byDay.set(d.day, (byDay.get(d.day) ?? 0) + Number(d.calls));
    byEndpoint.set(d.endpoint, (byEndpoint.get(d.endpoint) ?? 0) + Number(d.calls));
  }
  const total = [...byKey.values()].reduce((a, b) => a + b, 0);
  const names = new Map(keys.map((k) => [k.id, k.name]));
  const paidSince =
    status.subscribed_since && status.status !== 'canceled' ? new Date(status.subscribed_since) : undefined;
  const charge = monthlyCharge(plan.price_usd_month, paidSince, at);
  return {
    success: true as const,
    plan: plan.id,
    period: { start: start.toISOString(), end: end.toISOString() },
    usage_period: usagePeriod(at),
    subscription_period: status.subscription_period,
    total_api_calls: total,
    total_cost_usd: charge.amount_usd,
    cost: {
      amount_usd: charge.amount_usd,
      price_usd_month: plan.price_usd_month,
      prorated: charge.prorated,
      charged_from: charge.from.toISOString(),
      share_of_month: charge.share,
      explanation: charge.prorated
        ? `total_cost_usd is the plan's ${plan.price_usd_month} USD/month prorated to the part of this calendar month (UTC) since the plan became active on ${charge.from.toISOString()}: ${Math.round(charge.share * 1000) / 10}% of the month. The provider invoices per subscription period, so an invoice need not equal it.`
        : `total_cost_usd is the plan's price for the whole calendar month (UTC), not prorated. The provider invoices per subscription period, so an invoice need not fall on these dates.`,
    },
    monthly_call_allowance: plan.monthly_call_allowance,
    remaining_calls:
      plan.monthly_call_allowance === null ? null : Math.max(0, plan.monthly_call_allowance - total),
    by_endpoint: [...byEndpoint]
      .map(([endpoint, calls]) => ({ endpoint, calls }))
      .sort((a, b) => b.calls - a.calls),
    by_day: [...byDay].map(([day, calls]) => ({ day, calls })).sort((a, b) => a.day.localeCompare(b.day)),
    by_key: [...byKey].map(([key_id, calls]) => ({ key_id, name: names.get(key_id) ?? null, calls })),
  };
}
