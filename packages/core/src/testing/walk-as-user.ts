// Child process of adapters/local/walk-analytics.test.ts, started under another uid (tests run as
// root, and root reads a mode-000 directory): walks the directory it is given with an analytics
// sink and prints what happened as one JSON line.
import { walkTree } from '../adapters/local/walk-tree.js';
import { recordingAnalyticsSink } from './recording-analytics-sink.js';

const sink = recordingAnalyticsSink();
let outcome: { result: unknown } | { error: string };
try {
  outcome = { result: await walkTree(process.argv[2]!, { signal: new AbortController().signal, onProgress: () => {}, analytics: sink, workers: 1 }) };
} catch (error) {
  outcome = { error: error instanceof Error ? error.message : String(error) };
}
process.stdout.write(`${JSON.stringify({ ...outcome, files: sink.files, directories: sink.directories })}\n`);
