// Child process of adapters/local/native-walk.test.ts, started under another uid (tests run as
// root, and root reads a mode-000 directory): walks the directory it is given with the C walker
// and with worker threads, each into an analytics builder, and prints how each ended as one JSON line.
import { loadNativeWalker, nativeWalkTree } from '../adapters/local/native-walk.js';
import { walkTree } from '../adapters/local/walk-tree.js';
import { ScanAnalyticsBuilder } from '../scans/scan-analytics-builder.js';

const root = process.argv[2]!;
const quiet = { signal: new AbortController().signal, onProgress: () => {} };
const ended = (walk: Promise<unknown>) =>
  walk.then(
    (result) => ({ result }),
    (error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }),
  );
const { walker } = await loadNativeWalker();
const native =
  walker === undefined ? { error: 'no native walker' } : await ended(nativeWalkTree(root, walker, { ...quiet, analytics: new ScanAnalyticsBuilder(0) }));
const workers = await ended(walkTree(root, { ...quiet, analytics: new ScanAnalyticsBuilder(0) }));
process.stdout.write(`${JSON.stringify({ native, workers })}\n`);
