import { shareGaugeField as field, type ShareGaugeRow } from '@dms/core';

/** A label value as the text format writes it: backslash, line feed and double quote escaped. */
export function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

interface CachedLabels {
  name: string;
  nasName: string;
  poolName: string | null;
  bytes: Buffer;
  /** The scrape that last read the share. */
  seen: number;
}

/**
 * Each share's `{share_id="…",share="…",nas="…",pool="…"} ` as UTF-8, kept from one scrape to the
 * next under what it is made of: the share's id and the three names exactly as this scrape's read
 * gave them. A share whose name, NAS's name or pool's name differs from the kept one (renamed,
 * moved to another NAS or pool, left its pool) gets new labels at once; the entry of a share the
 * read no longer gives (deleted) is dropped. Nothing is trusted beyond that read, so replicas
 * never disagree for longer than their reads do (docs/decisions/185-metrics-scrape-cost.md).
 * Held: about 10,000 × (the label bytes and three names) for 10,000 shares.
 */
export class ShareLabelCache {
  readonly #entries = new Map<number, CachedLabels>();
  #scrape = 0;

  /** Starts a scrape: the shares asked for until `endScrape` are the ones it read. */
  beginScrape(): void {
    this.#scrape++;
  }

  /** `row`'s labels: the kept ones when made of the same id and names, else new ones (kept). */
  labelOf(row: ShareGaugeRow): Buffer {
    const scrape = this.#scrape;
    let entry = this.#entries.get(row[field.id]);
    if (entry === undefined || entry.name !== row[field.name] || entry.nasName !== row[field.nas_name] || entry.poolName !== row[field.pool_name]) {
      entry = { name: row[field.name], nasName: row[field.nas_name], poolName: row[field.pool_name], bytes: encodeLabels(row), seen: scrape };
      this.#entries.set(row[field.id], entry);
    }
    entry.seen = scrape;
    return entry.bytes;
  }

  /**
   * Ends a scrape that read `shares` shares (each once): drops the labels of any share it did not
   * read. Two scrapes at once may drop each other's: those are encoded again, never wrong.
   */
  endScrape(shares: number): void {
    if (this.#entries.size <= shares) return;
    for (const [id, entry] of this.#entries) if (entry.seen !== this.#scrape) this.#entries.delete(id);
  }

  /** Shares whose labels are kept (tests). */
  get size(): number {
    return this.#entries.size;
  }
}

function encodeLabels(row: ShareGaugeRow): Buffer {
  const name = escapeLabelValue(row[field.name]);
  const nas = escapeLabelValue(row[field.nas_name]);
  const pool = escapeLabelValue(row[field.pool_name] ?? '');
  return Buffer.from(`{share_id="${row[field.id]}",share="${name}",nas="${nas}",pool="${pool}"} `);
}
