import { maxExtensionLength } from '../domain/scan-analytics.js';

interface Totals {
  files: number;
  bytes: number;
}

/** Distinct extensions held before the smaller half is summed into `other`. */
export const maxTrackedExtensions = 4096;

/**
 * Files and bytes per extension with bounded memory (decision 155): keys are at most 16 units
 * long (see fileExtension) and at most 4,096 are held; when a 4,097th comes, the 2,048 holding
 * the fewest bytes are summed into `other` and forgotten. Exact for a share with at most 4,096
 * distinct extensions; otherwise an extension that first shows after a pruning may count part of
 * its files as `other`.
 */
export class ExtensionTotals {
  private readonly totals = new Map<string, Totals>();
  private readonly other: Totals = { files: 0, bytes: 0 };

  constructor(private readonly capacity: number = maxTrackedExtensions) {}

  add(extension: string, bytes: number, files = 1): void {
    const key = extension.length > maxExtensionLength ? '' : extension;
    const totals = this.totals.get(key);
    if (totals !== undefined) {
      totals.files += files;
      totals.bytes += bytes;
      return;
    }
    if (this.totals.size >= this.capacity) this.prune();
    this.totals.set(key, { files, bytes });
  }

  /** The `limit` extensions holding most bytes (ties: more files, then by name), the rest summed. */
  ranked(limit: number): { top: { extension: string; files: number; bytes: number }[]; other: Totals } {
    const rows = [...this.totals].map(([extension, totals]) => ({ extension, files: totals.files, bytes: totals.bytes }));
    rows.sort((a, b) => b.bytes - a.bytes || b.files - a.files || (a.extension < b.extension ? -1 : a.extension > b.extension ? 1 : 0));
    const other = { ...this.other };
    for (const row of rows.slice(limit)) {
      other.files += row.files;
      other.bytes += row.bytes;
    }
    return { top: rows.slice(0, limit), other };
  }

  private prune(): void {
    const smallestFirst = [...this.totals].sort(([, a], [, b]) => a.bytes - b.bytes);
    for (const [extension, totals] of smallestFirst.slice(0, Math.ceil(this.capacity / 2))) {
      this.other.files += totals.files;
      this.other.bytes += totals.bytes;
      this.totals.delete(extension);
    }
  }
}
