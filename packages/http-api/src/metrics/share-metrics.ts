import type { ShareGauges } from '@dms/core';

interface ShareGauge {
  name: string;
  help: string;
  /** Undefined: not known yet (no series for the share). */
  value(share: ShareGauges): number | undefined;
}

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
  {
    name: 'dms_share_files',
    help: "each share's files, as its latest scan counted them",
    value: (share) => (share.last_scanned_at === null ? undefined : share.file_count),
  },
  {
    name: 'dms_share_healthy',
    help: "1 when each share's latest test passed, 0 when it failed; no series before a first test",
    value: (share) => (share.health === 'ok' ? 1 : share.health === 'unreachable' ? 0 : undefined),
  },
  { name: 'dms_share_last_test_timestamp_seconds', help: "when each share's latest test ended (Unix time)", value: (share) => seconds(share.last_tested_at) },
  {
    name: 'dms_share_last_scan_timestamp_seconds',
    help: "when each share's latest completed scan ended (Unix time)",
    value: (share) => seconds(share.last_scanned_at),
  },
  {
    // A time, not a count of days (Prometheus' base unit): days until full = (this - time()) / 86400, as the share's days_until_full.
    name: 'dms_share_full_timestamp_seconds',
    help: "when each share's capacity forecast reaches its size (Unix time; the share's days_until_full from now); no series when unknown or not growing",
    value: (share) => seconds(share.full_at),
  },
];

/** A label value as the text format writes it: backslash, line feed and double quote escaped. */
export function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

/** `{share_id="…",share="…",nas="…",pool="…"}`: written once per share and scrape, for all its series. */
function labelsOf(share: ShareGauges): string {
  return `{share_id="${share.id}",share="${escapeLabelValue(share.name)}",nas="${escapeLabelValue(share.nas_name)}",pool="${escapeLabelValue(share.pool_name ?? '')}"}`;
}

/**
 * The per-share gauges as Prometheus text: all rebuilt from one read of the shares at each
 * scrape (one query, `NasShareStore.gauges`), so a deleted share's series go with it and a
 * renamed share never leaves its old name behind. Written here rather than through
 * prom-client's registry: its formatting of 80,000 values (10,000 shares) cost ~110-190 ms of
 * CPU a scrape, the labels escaped again for each series; this writes each share's labels once.
 */
export function shareExposition(read: () => Promise<ShareGauges[]>): () => Promise<string> {
  return async () => {
    const shares = await read();
    const labels = shares.map(labelsOf);
    let text = '';
    for (const gauge of shareGauges) {
      text += `# HELP ${gauge.name} ${gauge.help}\n# TYPE ${gauge.name} gauge\n`;
      for (let i = 0; i < shares.length; i++) {
        const value = gauge.value(shares[i]!);
        if (value !== undefined) text += `${gauge.name}${labels[i]!} ${value}\n`;
      }
    }
    return text;
  };
}
