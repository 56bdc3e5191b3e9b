import type { Metric, Registry } from 'prom-client';
import type { ShareGauges } from '@dms/core';

/** A share's labels, one object per share and scrape: prom-client escapes a shared label set once for all its series. */
type ShareLabels = Readonly<Record<'share_id' | 'share' | 'nas' | 'pool', string>>;

interface ShareGauge {
  name: string;
  help: string;
  /** Undefined: not known yet (no series for the share). */
  value(share: ShareGauges): number | undefined;
}

const noLabels: Record<string, never> = {};
const seconds = (at: string | null) => (at === null ? undefined : Date.parse(at) / 1000);

/** The gauges of each share: at most this many series a share (docs/decisions/180-metrics-per-share-and-activity.md). */
export const shareGauges: readonly ShareGauge[] = [
  {
    name: 'dms_share_capacity_bytes',
    help: 'size of the file system each share lies on, as its latest test or scan read it',
    value: (share) => share.capacity_bytes ?? undefined,
  },
  {
    name: 'dms_share_free_bytes',
    help: "bytes each share's user may still write, as its latest test or scan read it",
    value: (share) => share.free_bytes ?? undefined,
  },
  {
    name: 'dms_share_used_bytes',
    help: "the sum of the sizes of each share's files, as its latest scan counted them",
    value: (share) => (share.last_scanned_at === null ? undefined : share.file_size_sum),
  },
  { name: 'dms_share_files', help: "each share's files, as its latest scan counted them", value: (share) => (share.last_scanned_at === null ? undefined : share.file_count) },
  {
    name: 'dms_share_healthy',
    help: "1 when each share's latest test passed, 0 when it failed; no series before a first test",
    value: (share) => (share.health === 'ok' ? 1 : share.health === 'unreachable' ? 0 : undefined),
  },
  { name: 'dms_share_last_test_timestamp_seconds', help: "when each share's latest test ended (Unix time)", value: (share) => seconds(share.last_tested_at) },
  { name: 'dms_share_last_scan_timestamp_seconds', help: "when each share's latest completed scan ended (Unix time)", value: (share) => seconds(share.last_scanned_at) },
  {
    // A time, not a count of days (Prometheus' base unit): days until full = (this - time()) / 86400, as the share's days_until_full.
    name: 'dms_share_full_timestamp_seconds',
    help: "when each share's capacity forecast reaches its size (Unix time; the share's days_until_full from now); no series when unknown or not growing",
    value: (share) => seconds(share.full_at),
  },
];

/**
 * The per-share gauges: all rebuilt from one read of the shares at each scrape (one query,
 * `NasShareStore.gauges`), so a deleted share's series go with it and a renamed share never
 * leaves its old name behind. The series are handed to prom-client as plain values whose
 * labels are one shared object per share: escaped once per share and scrape (backslash,
 * double quote, line feed), where prom-client's Gauge would hash each label set on set().
 */
export function registerShareMetrics(registry: Registry, read: () => Promise<ShareGauges[]>): void {
  // Every gauge is collected in one scrape: they share one read, made by whichever collects first.
  let pending: Promise<Array<{ share: ShareGauges; labels: ShareLabels }>> | undefined;
  const shares = () =>
    (pending ??= read()
      .then((rows) => rows.map((share) => ({ share, labels: { share_id: String(share.id), share: share.name, nas: share.nas_name, pool: share.pool_name ?? '' } })))
      .finally(() => queueMicrotask(() => (pending = undefined))));
  for (const gauge of shareGauges) {
    const metric = {
      name: gauge.name,
      help: gauge.help,
      type: 'gauge',
      get: async () => {
        const values: Array<{ value: number; labels: Record<string, never>; sharedLabels: ShareLabels }> = [];
        for (const { share, labels } of await shares()) {
          const value = gauge.value(share);
          if (value !== undefined) values.push({ value, labels: noLabels, sharedLabels: labels });
        }
        return { name: gauge.name, help: gauge.help, type: 'gauge', aggregator: 'omit', values };
      },
    };
    // The registry reads these objects through get(); they are not prom-client classes.
    registry.registerMetric(metric as unknown as Metric);
  }
}
