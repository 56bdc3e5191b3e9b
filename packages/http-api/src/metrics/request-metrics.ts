import type { Metric, Registry } from 'prom-client';

const buckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10, 30];

interface Series {
  labels: { method: string; route: string; status: string };
  count: number;
  sum: number;
  /** Per bucket, not cumulative (made cumulative when scraped). */
  inBucket: number[];
}

/**
 * Request counts and durations by method, route and status, kept in plain numbers and
 * turned into Prometheus series only when scraped. prom-client's own counter and histogram
 * hash their label set on every inc/observe, which cost ~20 µs on every request.
 */
export function registerRequestMetrics(registry: Registry): (method: string, route: string, status: number, seconds: number) => void {
  const series = new Map<string, Series>();
  const counterName = 'dms_http_requests_total';
  const histogramName = 'dms_http_request_duration_seconds';

  const counter = {
    name: counterName,
    help: 'HTTP requests by route and status',
    type: 'counter',
    get: async () => ({
      name: counterName,
      help: 'HTTP requests by route and status',
      type: 'counter',
      aggregator: 'sum',
      values: [...series.values()].map((s) => ({ labels: s.labels, value: s.count })),
    }),
  };
  const histogram = {
    name: histogramName,
    help: 'HTTP request durations by route and status',
    type: 'histogram',
    get: async () => ({
      name: histogramName,
      help: 'HTTP request durations by route and status',
      type: 'histogram',
      aggregator: 'sum',
      values: [...series.values()].flatMap((s) => {
        let cumulative = 0;
        return [
          ...buckets.map((le, i) => {
            cumulative += s.inBucket[i] ?? 0;
            return { metricName: `${histogramName}_bucket`, labels: { ...s.labels, le }, value: cumulative };
          }),
          { metricName: `${histogramName}_bucket`, labels: { ...s.labels, le: '+Inf' }, value: s.count },
          { metricName: `${histogramName}_sum`, labels: s.labels, value: s.sum },
          { metricName: `${histogramName}_count`, labels: s.labels, value: s.count },
        ];
      }),
    }),
  };
  // The registry reads these objects through get(); they are not prom-client classes.
  registry.registerMetric(counter as unknown as Metric);
  registry.registerMetric(histogram as unknown as Metric);

  // Looked up by route, then method and status, without building a key string per request.
  const byRoute = new Map<string, Map<string, Map<number, Series>>>();
  const seriesOf = (method: string, route: string, status: number): Series => {
    let byMethod = byRoute.get(route);
    if (!byMethod) byRoute.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    let s = byStatus.get(status);
    if (!s) {
      s = { labels: { method, route, status: String(status) }, count: 0, sum: 0, inBucket: buckets.map(() => 0) };
      byStatus.set(status, s);
      series.set(`${method} ${status} ${route}`, s);
    }
    return s;
  };

  return (method, route, status, seconds) => {
    const s = seriesOf(method, route, status);
    s.count += 1;
    s.sum += seconds;
    for (let i = 0; i < buckets.length; i++) {
      if (seconds <= buckets[i]!) {
        s.inBucket[i]! += 1;
        return;
      }
    }
  };
}
