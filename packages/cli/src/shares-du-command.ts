import type { ShareScanDetail, TopDirectory } from '@dms/core';
import { CliError } from './cli-error.js';
import { cliPrincipal } from './cli-principal.js';
import { withDms, type Output } from './with-dms.js';

/** Sizes as `du -h` prints them: powers of 1024, one decimal below 10, rounded up, `K`/`M`/`G`/`T`/`P`. */
export function duSize(bytes: number): string {
  const units = ['K', 'M', 'G', 'T', 'P'];
  if (bytes < 1024) return String(bytes);
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return value < 10 ? `${(Math.ceil(value * 10) / 10).toFixed(1)}${units[unit]}` : `${Math.ceil(value)}${units[unit]}`;
}

const depthOf = (path: string) => path.split('/').length - 1;

/** `du`'s order: a directory after everything below it, siblings by name. */
function duOrder(a: TopDirectory, b: TopDirectory): number {
  if (b.path.startsWith(`${a.path}/`)) return 1;
  if (a.path.startsWith(`${b.path}/`)) return -1;
  return a.path < b.path ? -1 : 1;
}

/**
 * `dms shares du REF [--max-depth N] [--scan ID] [--bytes]`: a share's directories as its latest
 * (or a given) scan found them, like `du -h --max-depth=N`: size, a tab, the share-relative path,
 * each directory after those inside it and the share's root (`/`) last.
 */
export async function sharesDu(ref: string, opts: { maxDepth?: string; scan?: string; bytes?: boolean }, out: Output): Promise<number> {
  const maxDepth = opts.maxDepth === undefined ? 3 : Number(opts.maxDepth);
  if (!Number.isInteger(maxDepth) || maxDepth < 0 || maxDepth > 3)
    throw new CliError('--max-depth must be 0, 1, 2 or 3 (scans keep directories 3 levels deep)');
  const scan = await withDms(async (dms): Promise<ShareScanDetail | undefined> => {
    let scanId = opts.scan;
    if (scanId === undefined) {
      const latest = await dms.core.shares.scans(cliPrincipal, { kind: 'all' }, ref, { limit: ['1'] });
      if (latest.scans.length === 0) return undefined;
      scanId = String(latest.scans[0]!.id);
    }
    return dms.core.shares.scan(cliPrincipal, { kind: 'all' }, ref, scanId);
  });
  if (scan === undefined) throw new CliError(`share ${ref} has no completed scan yet: 'dms shares scan ${ref} --wait' runs one`);
  if (scan.analytics === null) throw new CliError(`scan ${scan.id} was made before scans kept directory totals: run a new scan`);
  const size = (bytes: number) => (opts.bytes ? String(bytes) : duSize(bytes));
  const shown = scan.analytics.top_directories.filter((directory) => depthOf(directory.path) <= maxDepth).sort(duOrder);
  for (const directory of shown) out(`${size(directory.bytes)}\t${directory.path}`);
  out(`${size(scan.file_size_sum)}\t/`);
  if (!scan.analytics.top_directories_complete) {
    process.stderr.write(`dms: the 100 largest directories by size and the 100 with most files of scan ${scan.id} (${scan.at}); others are not kept\n`);
  }
  return 0;
}
