import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { registerRequestMetrics } from './request-metrics.js';
import type { JobStatus, ShareCapacityGauge } from '@dms/core';
import { dmsVersion } from '../version.js';
import { registerCapacityMetrics } from './capacity-metrics.js';

export interface Metrics {
  registry: Registry;
  authFailures: Counter;
  trapSendFailures: Counter;
  /** Bytes of log lines dropped because standard output's reader fell too far behind. */
  logDroppedBytes: Counter;
  record(method: string, route: string, status: number, seconds: number): void;
}

/** Prometheus metrics of one app (its own registry, so several apps can live in one process). */
/** What the metrics read from the core at scrape time. */
export interface MetricSources {
  jobsByStatus(): Promise<Record<JobStatus, number>>;
  jobRejections(): Readonly<Record<string, number>>;
  /** Every share's latest capacity reading (one query per scrape). */
  shareCapacities(): Promise<ShareCapacityGauge[]>;
}

export function createMetrics(sources: MetricSources): Metrics {
  const registry = new Registry();
  // prom-client names its own metrics process_* and nodejs_*: the prefix makes them dms_process_*, dms_nodejs_*.
  collectDefaultMetrics({ register: registry, prefix: 'dms_' });
  const record = registerRequestMetrics(registry);
  // The usual build-info gauge: always 1, its label says which version answers (a dashboard joins on it).
  new Gauge({ name: 'dms_build_info', help: 'the version of dms that serves, as a label; always 1', labelNames: ['version'], registers: [registry] }).set(
    { version: dmsVersion },
    1,
  );
  const authFailures = new Counter({ name: 'dms_auth_failures_total', help: 'failed authentications', registers: [registry] });
  const trapSendFailures = new Counter({ name: 'dms_snmp_trap_send_failures_total', help: 'SNMP traps that could not be sent', registers: [registry] });
  const logDroppedBytes = new Counter({
    name: 'dms_log_dropped_bytes_total',
    help: "bytes of log lines dropped because standard output's reader fell too far behind",
    registers: [registry],
  });
  new Gauge({
    name: 'dms_jobs',
    help: 'jobs by state',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      for (const [state, count] of Object.entries(await sources.jobsByStatus())) this.set({ state }, count);
    },
  });

  new Counter({
    name: 'dms_job_rejections_total',
    help: 'share tests and scans refused by the job queue bounds, by bound',
    labelNames: ['reason'],
    registers: [registry],
    // The engine keeps the counts; they are copied at scrape time, not on each rejection.
    collect() {
      this.reset();
      for (const [reason, count] of Object.entries(sources.jobRejections())) this.inc({ reason }, count);
    },
  });

  registerCapacityMetrics(registry, sources.shareCapacities);

  return { registry, authFailures, trapSendFailures, logDroppedBytes, record };
}
