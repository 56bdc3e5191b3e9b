import type { ShareGauges } from '@dms/core';

interface ShareGauge {
  name: string;
  help: string;
  /** Undefined: not known yet (no series for the share). */
  value(share: ShareGauges): number | undefined;
}

const digit = (text: string, at: number) => text.charCodeAt(at) - 48;
const number = (text: string, from: number, length: number) => {
  let value = 0;
  for (let i = from; i < from + length; i++) value = value * 10 + digit(text, i);
  return value;
};
/** `2026-11-29T01:15:00.000Z` (how dms stores times) read from its digits: Date.parse for 20,000 of them was a fifth of a scrape. */
export function isoSeconds(at: string): number {
  if (at.length !== 24 || at[10] !== 'T' || at[23] !== 'Z') return Date.parse(at) / 1000;
  const ms = Date.UTC(number(at, 0, 4), number(at, 5, 2) - 1, number(at, 8, 2), number(at, 11, 2), number(at, 14, 2), number(at, 17, 2), number(at, 20, 3));
  return Number.isNaN(ms) ? Date.parse(at) / 1000 : ms / 1000;
}
const seconds = (at: string | null) => (at === null ? undefined : isoSeconds(at));

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

/** `{share_id="…",share="…",nas="…",pool="…"}` as UTF-8: written once per share and scrape, for all its series. */
function labelsOf(share: ShareGauges): Buffer {
  return Buffer.from(
    `{share_id="${share.id}",share="${escapeLabelValue(share.name)}",nas="${escapeLabelValue(share.nas_name)}",pool="${escapeLabelValue(share.pool_name ?? '')}"} `,
  );
}

/** Writes `value` as the text format does (as JavaScript prints it); whole numbers digit by digit, without a string each. */
function writeNumber(out: Buffer, at: number, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) return at + out.write(String(value), at, 'latin1');
  let digits = 1;
  for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits++;
  for (let i = digits - 1, rest = value; i >= 0; i--, rest = Math.floor(rest / 10)) out[at + i] = 0x30 + (rest % 10);
  return at + digits;
}

/** The longest value written: a double as JavaScript prints it (e.g. -1.2345678901234567e+308). */
const maxValueBytes = 25;

/**
 * The per-share gauges as Prometheus text: all rebuilt from one read of the shares at each
 * scrape (one query, `NasShareStore.gauges`), so a deleted share's series go with it and a
 * renamed share never leaves its old name behind. Written here into one buffer rather than
 * through prom-client's registry: its formatting of 80,000 values (10,000 shares) cost
 * ~110-190 ms of CPU a scrape and a string of every line, each share's labels escaped again for
 * each series; here they are escaped and encoded once per share, and little is left to collect.
 */
export function shareExposition(read: () => Promise<ShareGauges[]>): () => Promise<Buffer> {
  return async () => {
    const shares = await read();
    const labels = shares.map(labelsOf);
    const headers = shareGauges.map((gauge) => `# HELP ${gauge.name} ${gauge.help}\n# TYPE ${gauge.name} gauge\n`);
    let bound = 0;
    for (const header of headers) bound += Buffer.byteLength(header);
    for (const label of labels) bound += label.length * shareGauges.length;
    for (const gauge of shareGauges) bound += (gauge.name.length + maxValueBytes + 1) * shares.length;
    const out = Buffer.allocUnsafe(bound);
    let at = 0;
    shareGauges.forEach((gauge, g) => {
      at += out.write(headers[g]!, at, 'utf8');
      for (let i = 0; i < shares.length; i++) {
        const value = gauge.value(shares[i]!);
        if (value === undefined) continue;
        at += out.write(gauge.name, at, 'latin1');
        at += labels[i]!.copy(out, at);
        at = writeNumber(out, at, value);
        out[at++] = 0x0a;
      }
    });
    return out.subarray(0, at);
  };
}
