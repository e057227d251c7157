import { constants, type PerformanceEntry, PerformanceObserver } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import type { FastifyInstance, onResponseHookHandler } from 'fastify';
import { collectDefaultMetrics, Gauge, type Metric, Registry } from 'prom-client';

const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

interface Series {
  labels: { method: string; route: string; status_code: string };
  count: number;
  sum: number;
  /** Non-cumulative counts per bucket; the last slot is +Inf. */
  buckets: Float64Array;
}

/**
 * Request count and latency per route, kept in plain numbers on the hot path and handed to
 * prom-client only when /metrics is scraped. prom-client's own `observe` validates and hashes
 * labels on every call, which cost a measurable share of a cheap request's time.
 */
class RouteMetrics {
  private readonly series = new Map<string, Series>();

  observe(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${route} ${status}`;
    let s = this.series.get(key);
    if (!s) {
      s = {
        labels: { method, route, status_code: String(status) },
        count: 0,
        sum: 0,
        buckets: new Float64Array(BUCKETS.length + 1),
      };
      this.series.set(key, s);
    }
    s.count++;
    s.sum += seconds;
    let i = 0;
    while (i < BUCKETS.length && seconds > BUCKETS[i]!) i++;
    s.buckets[i]! += 1;
  }

  counterMetric(): Metric {
    const series = this.series;
    return {
      name: 'arbiter_http_requests_total',
      help: 'HTTP requests by route and status',
      type: 'counter',
      get: async () => ({
        name: 'arbiter_http_requests_total',
        help: 'HTTP requests by route and status',
        type: 'counter',
        aggregator: 'sum',
        values: [...series.values()].map((s) => ({ labels: s.labels, value: s.count })),
      }),
    } as unknown as Metric;
  }

  histogramMetric(): Metric {
    const name = 'arbiter_http_request_duration_seconds';
    const series = this.series;
    return {
      name,
      help: 'HTTP request latency by route',
      type: 'histogram',
      get: async () => {
        const values: Array<{ labels: Record<string, string | number>; value: number; metricName: string }> =
          [];
        for (const s of series.values()) {
          let cumulative = 0;
          BUCKETS.forEach((le, i) => {
            cumulative += s.buckets[i]!;
            values.push({ labels: { le, ...s.labels }, value: cumulative, metricName: `${name}_bucket` });
          });
          values.push({ labels: { le: '+Inf', ...s.labels }, value: s.count, metricName: `${name}_bucket` });
          values.push({ labels: s.labels, value: s.sum, metricName: `${name}_sum` });
          values.push({ labels: s.labels, value: s.count, metricName: `${name}_count` });
        }
        return { name, help: 'HTTP request latency by route', type: 'histogram', aggregator: 'sum', values };
      },
    } as unknown as Metric;
  }
}

/**
 * The main thread's V8 heap in use just after the last full garbage collection (read when the
 * collection is reported, a moment later): what is live,
 * without the garbage that RSS and `heap_size_used` also count, which swings with the load (the
 * heap grows to a few times what is live while allocation is fast). A leak shows here first.
 */
let heapAfterFullGc = 0;
let gcObserver: PerformanceObserver | undefined;
function observeFullGc(): void {
  if (gcObserver) return;
  gcObserver = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) heapAfterFullGc = getHeapStatistics().used_heap_size;
    }
  });
  gcObserver.observe({ entryTypes: ['gc'] });
}

/** A registry per app instance, so several apps in one process (tests, benchmarks) never share series. */
export function registerMetrics(
  app: FastifyInstance,
  sources: { vectorCacheBytes: () => number; knnThreadMemoryBytes: () => number },
): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'arbiter_' });
  observeFullGc();
  new Gauge({
    name: 'arbiter_heap_after_full_gc_bytes',
    help: 'V8 heap in use (main thread) right after the last full garbage collection; 0 before the first',
    registers: [registry],
    collect() {
      this.set(heapAfterFullGc);
    },
  });
  new Gauge({
    name: 'arbiter_vector_cache_bytes',
    help: 'Bytes of claim vectors the in-process k-NN scans hold (bounded by ARBITER_VECTOR_CACHE_MB)',
    registers: [registry],
    collect() {
      this.set(sources.vectorCacheBytes());
    },
  });
  new Gauge({
    name: 'arbiter_knn_thread_memory_bytes',
    help: "The k-NN thread's V8 heap (committed) and external memory, as it last reported them; 0 without the thread",
    registers: [registry],
    collect() {
      this.set(sources.knnThreadMemoryBytes());
    },
  });
  const routes = new RouteMetrics();
  registry.registerMetric(routes.counterMetric());
  registry.registerMetric(routes.histogramMetric());
  // Per-route hooks carry their labels; only unmatched requests go through the global hook.
  // Route patterns, never raw URLs: unknown paths would otherwise create unbounded series.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const observe: onResponseHookHandler = (request, reply, done) => {
      routes.observe(request.method, route.url, reply.statusCode, reply.elapsedTime / 1000);
      done();
    };
    if (methods.length === 0) return;
    const existing =
      route.onResponse === undefined
        ? []
        : Array.isArray(route.onResponse)
          ? route.onResponse
          : [route.onResponse];
    route.onResponse = [...existing, observe];
  });
  app.addHook('onResponse', (request, reply, done) => {
    if (request.is404)
      routes.observe(request.method, 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  return registry;
}
