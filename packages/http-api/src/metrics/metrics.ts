import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { registerRequestMetrics } from './request-metrics.js';
import { alertSources, jobKinds, severityLevels, unfinishedJobStatuses, type JobKind, type Severity, type ShareGaugeRow } from '@dms/core';
import type { ActivityFeed } from '@dms/core/runtime';
import { dmsVersion } from '../version.js';
import { ShareGaugeTable } from './share-metrics.js';
import { ShareLabelCache } from './share-label-cache.js';
import { ScratchBuffer } from './scratch-buffer.js';
import { registerActivityMetrics } from './activity-metrics.js';

/** A scrape's text, in a buffer lent until `release` (metrics-response.ts gives it back once gzipped). */
export interface Exposition {
  text: Buffer;
  /** Gives the buffer back for the next scrape: only once nothing reads `text` any more. */
  release(): void;
}

export interface Metrics {
  registry: Registry;
  /** The whole `/metrics` answer: what the registry holds and the per-share gauges. */
  exposition(): Promise<Exposition>;
  authFailures: Counter;
  trapSendFailures: Counter;
  /** Bytes of log lines dropped because standard output's reader fell too far behind. */
  logDroppedBytes: Counter;
  record(method: string, route: string, status: number, seconds: number): void;
}

/** What the metrics read from the core at scrape time, each one indexed query or memory. */
export interface MetricSources {
  /** Queued and working jobs by kind (the jobs_status_kind index: never the finished jobs). */
  unfinishedJobs(): Promise<Array<{ kind: JobKind; status: string; count: number }>>;
  jobRejections(): Readonly<Record<string, number>>;
  /** Open alerts by source and level (the alerts_open index: never the cleared ones). */
  openAlerts(): Promise<Array<{ source: string; level: Severity; count: number }>>;
  /** Every share's names and latest findings, a page at a time (one read by primary key a scrape over the shares). */
  shares(pageSize: number): AsyncIterable<readonly ShareGaugeRow[]>;
  /** What this process's engine, dispatcher and scheduler do, counted as it happens. */
  activity: Pick<ActivityFeed, 'subscribe'>;
}

/** Shares read a page (docs/decisions/185-metrics-scrape-cost.md): small enough to die young in V8's heap, large enough that a page's statement costs little. */
const sharePageSize = 1000;

/** Prometheus metrics of one app (its own registry, so several apps can live in one process). */
export function createMetrics(sources: MetricSources): Metrics {
  const registry = new Registry();
  // prom-client names its own metrics process_* and nodejs_*: the prefix makes them dms_process_*, dms_nodejs_*.
  collectDefaultMetrics({ register: registry, prefix: 'dms_' });
  // Gauges named *_total (promtool check metrics: non-counter metrics should not have "_total"
  // suffix); their per-type twins dms_nodejs_active_{handles,requests,resources} sum to the same.
  for (const kind of ['handles', 'requests', 'resources']) registry.removeSingleMetric(`dms_nodejs_active_${kind}_total`);
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
    help: 'jobs queued and working now, by kind',
    labelNames: ['kind', 'status'],
    registers: [registry],
    async collect() {
      const counts = await sources.unfinishedJobs();
      for (const kind of jobKinds) for (const status of unfinishedJobStatuses) this.set({ kind, status }, 0);
      for (const { kind, status, count } of counts) this.set({ kind, status }, count);
    },
  });
  new Gauge({
    name: 'dms_alerts_open',
    help: 'open alerts by source and level (info, notice, warning, error, critical)',
    labelNames: ['source', 'level'],
    registers: [registry],
    // Every source at every level, 0 when none is open: bounded (the sources are a catalogue), and never absent.
    async collect() {
      const counts = await sources.openAlerts();
      for (const source of alertSources) for (const level of Object.values(severityLevels)) this.set({ source, level }, 0);
      for (const { source, level, count } of counts) this.set({ source, level: severityLevels[level] }, count);
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

  registerActivityMetrics(registry, sources.activity);
  const labels = new ShareLabelCache();
  const scratch = new ScratchBuffer();
  let lastShareCount = 0;
  // Each page's rows copied into the table and let go before the next page is read.
  const readShares = async () => {
    const table = new ShareGaugeTable(lastShareCount);
    labels.beginScrape();
    for await (const page of sources.shares(sharePageSize)) for (const row of page) table.add(row, labels.labelOf(row));
    labels.endScrape(table.count);
    lastShareCount = table.count;
    return table;
  };

  return {
    registry,
    // The registry's text, then the shares' (written apart: docs/decisions/185-metrics-scrape-cost.md), in one buffer.
    exposition: async () => {
      const [text, table] = await Promise.all([registry.metrics(), readShares()]);
      const out = scratch.take(Buffer.byteLength(text) + table.bound());
      const end = table.write(out, out.write(text, 0, 'utf8'));
      return { text: out.subarray(0, end), release: () => scratch.give(out) };
    },
    authFailures,
    trapSendFailures,
    logDroppedBytes,
    record,
  };
}
