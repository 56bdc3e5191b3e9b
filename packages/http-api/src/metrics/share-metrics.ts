import { shareGaugeField as field, type ShareGaugeRow } from '@dms/core';
import { maxNumberBytes, writeNumber } from './exposition-number.js';

interface ShareGauge {
  name: string;
  help: string;
  /** Null: not known yet (no series for the share). */
  value(share: ShareGaugeRow): number | null;
}

const ifScanned = (share: ShareGaugeRow, value: number) => (share[field.last_scanned_at] === null ? null : value);

/** The gauges of each share: at most this many series a share (docs/decisions/180-metrics-per-share-and-activity.md). */
export const shareGauges: readonly ShareGauge[] = [
  {
    name: 'dms_share_capacity_bytes',
    help: 'size of the file system each share lies on, as its latest test or scan read it',
    value: (share) => share[field.capacity_bytes],
  },
  {
    name: 'dms_share_free_bytes',
    help: "bytes each share's user may still write, as its latest test or scan read it",
    value: (share) => share[field.free_bytes],
  },
  {
    name: 'dms_share_used_bytes',
    help: "the sum of the sizes of each share's files, as its latest scan counted them",
    value: (share) => ifScanned(share, share[field.file_size_sum]),
  },
  {
    name: 'dms_share_files',
    help: "each share's files, as its latest scan counted them",
    value: (share) => ifScanned(share, share[field.file_count]),
  },
  {
    name: 'dms_share_healthy',
    help: "1 when each share's latest test passed, 0 when it failed; no series before a first test",
    value: (share) => (share[field.health] === 'ok' ? 1 : share[field.health] === 'unreachable' ? 0 : null),
  },
  {
    name: 'dms_share_last_test_timestamp_seconds',
    help: "when each share's latest test ended (Unix time)",
    value: (share) => share[field.last_tested_at],
  },
  {
    name: 'dms_share_last_scan_timestamp_seconds',
    help: "when each share's latest completed scan ended (Unix time)",
    value: (share) => share[field.last_scanned_at],
  },
  {
    // A time, not a count of days (Prometheus' base unit): days until full = (this - time()) / 86400, as the share's days_until_full.
    name: 'dms_share_full_timestamp_seconds',
    help: "when each share's capacity forecast reaches its size (Unix time; the share's days_until_full from now); no series when unknown or not growing",
    value: (share) => share[field.full_at],
  },
];

const encoded = shareGauges.map((gauge) => ({
  gauge,
  name: Buffer.from(gauge.name, 'latin1'),
  header: Buffer.from(`# HELP ${gauge.name} ${gauge.help}\n# TYPE ${gauge.name} gauge\n`),
}));

/**
 * One scrape's per-share values, a column of doubles a gauge (NaN: not known, no series), and each
 * share's labels: what the text is written from once every page of shares was read. Doubles, not
 * the rows: the rows of a page are let go as soon as it is copied here (docs/decisions/185-metrics-scrape-cost.md).
 */
export class ShareGaugeTable {
  #count = 0;
  #capacity: number;
  /** Gauge by gauge: the value of share `i` for gauge `g` is at `g * capacity + i`. */
  #values: Float64Array;
  #labels: Buffer[];
  #labelBytes = 0;

  /** `expected`: about how many shares (the last scrape's count): room is doubled past it. */
  constructor(expected: number) {
    this.#capacity = Math.max(64, Math.ceil(expected * 1.125));
    this.#values = new Float64Array(this.#capacity * encoded.length);
    this.#labels = new Array<Buffer>(this.#capacity);
  }

  get count(): number {
    return this.#count;
  }

  add(row: ShareGaugeRow, labels: Buffer): void {
    if (this.#count === this.#capacity) this.#grow();
    for (let g = 0; g < encoded.length; g++) this.#values[g * this.#capacity + this.#count] = encoded[g]!.gauge.value(row) ?? Number.NaN;
    this.#labels[this.#count++] = labels;
    this.#labelBytes += labels.length;
  }

  #grow(): void {
    const capacity = this.#capacity * 2;
    const values = new Float64Array(capacity * encoded.length);
    for (let g = 0; g < encoded.length; g++) values.set(this.#values.subarray(g * this.#capacity, g * this.#capacity + this.#count), g * capacity);
    this.#capacity = capacity;
    this.#values = values;
    this.#labels.length = capacity;
  }

  /** The most bytes `write` writes (its buffer is taken first). */
  bound(): number {
    let bound = this.#labelBytes * encoded.length;
    for (const { header, name } of encoded) bound += header.length + (name.length + maxNumberBytes + 1) * this.#count;
    return bound;
  }

  /**
   * Writes the per-share gauges as Prometheus text into `out` from `at` (room for `bound()`);
   * answers where the text ends. Every series comes from this scrape's read of the shares, so a
   * deleted share's series go with it and a renamed share never leaves its old name behind; each
   * share's labels are encoded once for all its series (and kept from scrape to scrape:
   * share-label-cache.ts). Written here rather than through prom-client's registry, whose
   * formatting of 80,000 values (10,000 shares) cost ~110-190 ms of CPU a scrape and a string of
   * every line.
   */
  write(out: Buffer, at: number): number {
    const labels = this.#labels;
    for (let g = 0; g < encoded.length; g++) {
      const { name, header } = encoded[g]!;
      out.set(header, at);
      at += header.length;
      const values = this.#values.subarray(g * this.#capacity, g * this.#capacity + this.#count);
      for (let i = 0; i < values.length; i++) {
        const value = values[i]!;
        if (Number.isNaN(value)) continue;
        out.set(name, at);
        at += name.length;
        const label = labels[i]!;
        out.set(label, at);
        at += label.length;
        at = writeNumber(out, at, value);
        out[at++] = 0x0a;
      }
    }
    return at;
  }
}
