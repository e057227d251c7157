/**
 * The bench:vault corpus: seeded synthetic claims and questions, the same on every run.
 * "<Service> <metric> in <region> is <number> <unit> <qualifier>".
 */

/** mulberry32: small, fast and good enough to make the same corpus on every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SERVICES = (
  'Checkout Payments Search Billing Inventory Shipping Auth Notifications Catalog Recommendations Reviews ' +
  'Pricing Invoicing Ledger Gateway Messaging Analytics Reporting Scheduler Storage Identity Profile Cart ' +
  'Fulfilment Returns Loyalty Coupons Tax Fraud Onboarding Support Chat Telemetry Export Import Webhooks ' +
  'Sync Media Thumbnails Translation'
).split(' ');
const METRICS = [
  ['p95 latency', 'ms'],
  ['p99 latency', 'ms'],
  ['error rate', 'percent'],
  ['throughput', 'requests per second'],
  ['memory use', 'megabytes'],
  ['queue depth', 'messages'],
  ['cache hit ratio', 'percent'],
  ['uptime', 'percent'],
  ['cold start time', 'seconds'],
  ['daily cost', 'dollars'],
  ['replica count', 'instances'],
  ['disk usage', 'gigabytes'],
] as const;
const REGIONS = (
  'eu-west-1 eu-central-1 us-east-1 us-east-2 us-west-2 ap-south-1 ap-northeast-1 ap-southeast-2 ' +
  'sa-east-1 ca-central-1 af-south-1 me-south-1'
).split(' ');
const QUALIFIERS = [
  'since the last deploy',
  'during peak hours',
  'over the past week',
  'after the migration',
  'according to the dashboard',
  'on weekdays',
  'at night',
  'this quarter',
  'before the incident',
  'under the new plan',
];
const UNRELATED = [
  'Who painted the ceiling of the Sistine Chapel?',
  'A recipe for sourdough bread with a long cold proof',
  'The best hiking trails near the lake in autumn',
  'How many moons does Jupiter have?',
  'Tips for teaching a puppy to sit and stay',
];

function pick<T>(rand: () => number, items: readonly T[]): T {
  return items[Math.floor(rand() * items.length)]!;
}

/** N distinct claims (distinct after normalisation, so none becomes a new version of another). */
export function syntheticClaims(n: number, seed: number): string[] {
  const rand = seeded(seed);
  const seen = new Set<string>();
  const out: string[] = [];
  while (out.length < n) {
    const [metric, unit] = pick(rand, METRICS);
    const text = `${pick(rand, SERVICES)} ${metric} in ${pick(rand, REGIONS)} is ${Math.floor(rand() * 100_000) / 10} ${unit} ${pick(rand, QUALIFIERS)}`;
    if (seen.has(text)) continue;
    seen.add(text);
    out.push(text);
  }
  return out;
}

/** Questions about the stored subjects, plus a few about nothing stored. */
export function syntheticQueries(n: number, seed: number): string[] {
  const rand = seeded(seed);
  return Array.from({ length: n }, (_, i) => {
    if (i % 10 === 9) return pick(rand, UNRELATED);
    const [metric] = pick(rand, METRICS);
    return `What is the ${metric} of ${pick(rand, SERVICES)} in ${pick(rand, REGIONS)}?`;
  });
}
