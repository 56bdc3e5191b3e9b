import { Gauge, type Registry } from 'prom-client';
import type { ShareCapacityGauge } from '@dms/core';

const labelNames = ['share_id', 'share', 'nas', 'pool'] as const;

/**
 * `dms_share_capacity_bytes` and `dms_share_free_bytes`: one series per share whose capacity was
 * read (docs/decisions/141-share-capacity-metrics.md). Both are rebuilt from one query at each
 * scrape, so a deleted share's series go with it and a renamed share never leaves its old name
 * behind. prom-client escapes the label values (backslash, double quote, line feed).
 */
export function registerCapacityMetrics(registry: Registry, read: () => Promise<ShareCapacityGauge[]>): void {
  // Both gauges are collected in one scrape: they share one read, made by whichever collects first.
  let pending: Promise<ShareCapacityGauge[]> | undefined;
  const shares = () => (pending ??= read().finally(() => queueMicrotask(() => (pending = undefined))));
  const gauge = (name: string, help: string, value: (share: ShareCapacityGauge) => number) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      async collect() {
        const rows = await shares();
        this.reset();
        for (const share of rows) {
          this.set({ share_id: String(share.id), share: share.name, nas: share.nas_name, pool: share.pool_name ?? '' }, value(share));
        }
      },
    });
  gauge('dms_share_capacity_bytes', 'size of the file system each share lies on, as its latest test or scan read it', (share) => share.capacity_bytes);
  gauge('dms_share_free_bytes', "bytes each share's user may still write, as its latest test or scan read it", (share) => share.free_bytes);
}
