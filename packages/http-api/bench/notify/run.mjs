// The notifications section of the bench (issue 44): `node bench/notify/run.mjs [--events N]
// [--channels N]` after a build. A dms (openDms over SQLite, its notification dispatcher started)
// in the bench's own process, 5 webhook channels whose receivers the bench starts on 127.0.0.1
// (answering 204), and 1,000 alerts raised one after the other: each raise is queued for every
// channel in its own transaction and sent by the dispatcher. notify.dispatch_p99_ms is the
// 99th percentile, over every (event, channel), of the time from the raise's commit to the
// receiver's first sight of it; notify.loop_delay_max_ms the event loop's worst delay meanwhile.
// Prints a table and merges its rows into bench/results.json (rows of the same names replaced).
import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDms } from '@dms/core/runtime';
import { systemPrincipal } from '@dms/core';
import { makeTempDir, round, withBudget } from '../lib.mjs';
import { mergeResults, printResults } from '../report.mjs';
import { loopDelayWindow } from '../watch/loop-delay.mjs';

function parseArgs(argv) {
  const options = { events: 1_000, channels: 5 };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].startsWith('--') && argv[i].includes('=') ? argv[i].split(/=(.*)/s) : [argv[i], undefined];
    const value = () => Number(inline ?? argv[++i]);
    if (flag === '--events') options.events = value();
    else if (flag === '--channels') options.channels = value();
    else throw new Error(`bench notify: unknown argument '${argv[i]}' (known: --events N, --channels N)`);
  }
  for (const name of ['events', 'channels']) {
    if (!Number.isInteger(options[name]) || options[name] < 1) throw new Error(`bench notify: --${name} must be a whole number of at least 1`);
  }
  return options;
}

const args = parseArgs(process.argv.slice(2));
const resultsFile = join(dirname(fileURLToPath(import.meta.url)), '..', 'results.json');
const deadlineMs = 300_000;
const targets = {
  'notify.dispatch_p99_ms': { op: '<', value: 2_000 },
  'notify.loop_delay_max_ms': { op: '<', value: 100 },
};
const results = [];
const notes = [];
const record = (name, value, unit) => results.push({ name, value: round(value, 2), unit });
const t0 = performance.now();
const log = (message) => process.stderr.write(`[bench notify +${((performance.now() - t0) / 1000).toFixed(1)}s] ${message}\n`);

/** A webhook receiver on 127.0.0.1: the time each event (by its share id) first reached it. */
async function startReceiver(onFirst) {
  const seen = new Map();
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const at = performance.now();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const share = body.data?.alert?.resource?.id;
      if (share !== undefined && !seen.has(share)) {
        seen.set(share, at);
        onFirst();
      }
      response.writeHead(204).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/hook`,
    seen,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

async function main() {
  const expected = args.events * args.channels;
  let received = 0;
  let wake = () => {};
  const receivers = [];
  for (let i = 0; i < args.channels; i += 1)
    receivers.push(
      await startReceiver(() => {
        received += 1;
        wake();
      }),
    );
  const dataDir = makeTempDir('dms-bench-notify-');
  const dms = await openDms({
    role: 'command',
    createDatabase: true,
    dataDir,
    localRoots: [tmpdir()],
    trapSender: null,
    log: { info() {}, warn() {}, error() {} },
  });
  try {
    for (const [i, receiver] of receivers.entries())
      await dms.core.notificationChannels.create(systemPrincipal, { name: `bench-${i}`, type: 'webhook', min_level: 1, settings: { url: receiver.url } });
    dms.notifications.start();
    const window = loopDelayWindow();
    // The histogram's timer takes its first reading at the loop's first turn after enable(): a
    // stall begun in the same turn (a raise loop whose SQLite awaits never leave the microtask
    // queue) would go unseen. One turn of the timer first, so the whole run is watched.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const raisedAt = new Map();
    const started = performance.now();
    for (let i = 0; i < args.events; i += 1) {
      const id = String(i + 1);
      await dms.core.alerts.sight('share_unreachable', { type: 'nas_shares', id, name: `share-${id}` }, 'gone');
      raisedAt.set(id, performance.now());
    }
    const raisedSeconds = (performance.now() - started) / 1000;
    while (received < expected) {
      if (performance.now() - started > deadlineMs) throw new Error(`only ${received} of ${expected} deliveries arrived within ${deadlineMs / 1000} s`);
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, 1_000);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    const totalSeconds = (performance.now() - started) / 1000;
    const loop = window.stop();
    const latencies = receivers.flatMap((receiver) => [...receiver.seen].map(([id, at]) => at - raisedAt.get(id)));
    record('notify.dispatch_p99_ms', percentile(latencies, 99), 'ms');
    record('notify.dispatch_median_ms', percentile(latencies, 50), 'ms');
    record('notify.loop_delay_max_ms', loop.maxMs, 'ms');
    record('notify.deliveries_per_s', expected / totalSeconds, 'deliveries/s');
    notes.push(
      `notify: ${args.events} alerts raised one after the other in ${round(raisedSeconds, 2)} s (each queued for ${args.channels} webhook channels in its transaction, SQLite), all ${expected} deliveries received by ${args.channels} receivers on 127.0.0.1 after ${round(totalSeconds, 2)} s; dispatch = raise committed → the receiver's first sight (a raise whose commit comes after its send is counted from its commit: a slightly low figure for it); loop delay over the whole run (10 ms resolution); load average at end ${loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')} (under load the figures are indicative)`,
    );
    log(`p99 ${round(percentile(latencies, 99), 1)} ms, loop max ${round(loop.maxMs, 1)} ms, ${round(expected / totalSeconds, 1)} deliveries/s`);
  } finally {
    await dms.close();
    for (const receiver of receivers) await receiver.close();
  }
}

await withBudget({
  main,
  notes,
  log,
  report() {
    printResults(results, targets, notes);
    mergeResults(resultsFile, results);
    console.log(`\nmerged ${results.length} rows into ${resultsFile} (bench notify took ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  },
});
