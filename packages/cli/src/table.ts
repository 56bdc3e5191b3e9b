import { listDefaults } from '@dms/core';
import type { Output } from './with-dms.js';

/** The layout of every list command: a header and one tab-separated line a row, or one line saying there is none. */
export function printTable(out: Output, table: { none: string; header: readonly string[]; rows: ReadonlyArray<readonly string[]> }): void {
  if (table.rows.length === 0) return out(table.none);
  out(table.header.join('\t'));
  for (const row of table.rows) out(row.join('\t'));
}

/** When a list shows one page of more: said on stderr, so the table on stdout stays whole for `cut` and `awk`. */
export function notePartialPage(shown: number, count: number, what: string): void {
  if (count <= shown) return;
  process.stderr.write(`dms: the newest ${shown} of ${count} ${what}; --limit N shows up to ${listDefaults.maxPageSize}\n`);
}

/** notePartialPage for a list in id order, which pages on with --offset: which rows of how many this page shows. */
export function notePageOfMore(offset: number, shown: number, count: number, what: string): void {
  if (offset === 0 && count <= shown) return;
  const rows = shown === 0 ? 'none' : `${offset + 1} to ${offset + shown}`;
  process.stderr.write(`dms: ${what} ${rows} of ${count}; --limit N shows up to ${listDefaults.maxPageSize}, --offset N skips the first N\n`);
}
