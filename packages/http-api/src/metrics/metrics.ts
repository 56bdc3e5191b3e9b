import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Storage } from '@dms/core';

export interface Metrics {
  registry: Registry;
  authFailures: Counter;
  trapSendFailures: Counter;
  record(method: string, route: string, status: number, seconds: number): void;
}

/** Prometheus metrics of one app (its own registry, so several apps can live in one process). */
export function createMetrics(storage: Storage): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'dms_process_' });
  const requests = new Counter({ name: 'dms_http_requests_total', help: 'HTTP requests by route and status', labelNames: ['method', 'route', 'status'], registers: [registry] });
  const durations = new Histogram({
    name: 'dms_http_request_duration_seconds',
    help: 'HTTP request durations by route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10, 30],
    registers: [registry],
  });
  const authFailures = new Counter({ name: 'dms_auth_failures_total', help: 'failed authentications', registers: [registry] });
  const trapSendFailures = new Counter({ name: 'dms_snmp_trap_send_failures_total', help: 'SNMP traps that could not be sent', registers: [registry] });
  new Gauge({
    name: 'dms_jobs',
    help: 'jobs by state',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      for (const [state, count] of Object.entries(await storage.jobs.countByStatus())) this.set({ state }, count);
    },
  });

  // One pair of children per label set: prom-client's label lookup costs more than the count.
  const children = new Map<string, { count: Counter.Internal; duration: Histogram.Internal<string> }>();
  /** Counts a finished request under its route pattern (never the raw path: ids would explode the labels). */
  const record = (method: string, route: string, status: number, seconds: number) => {
    const key = `${method} ${route} ${status}`;
    let child = children.get(key);
    if (!child) {
      child = { count: requests.labels(method, route, String(status)), duration: durations.labels(method, route, String(status)) };
      children.set(key, child);
    }
    child.count.inc();
    child.duration.observe(seconds);
  };
  return { registry, authFailures, trapSendFailures, record };
}
