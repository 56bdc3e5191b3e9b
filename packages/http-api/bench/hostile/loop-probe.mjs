// Preloaded into the dms server under test (`node --import loop-probe.mjs … serve`): the
// event loop's delay histogram (perf_hooks.monitorEventLoopDelay), reset and read by the bench
// over the IPC channel. It adds a 10 ms-resolution timer and nothing else to the server.
//
// BENCH_LOOP_TRACE=FILE (a diagnosis, off by default): also a 10 ms timer that notes each tick
// late by more than 20 ms or busy (30 statements or more since the tick before), with those
// statements (better-sqlite3's Statement methods timed: count, total ms, the costliest by their
// SQL), one JSON line per such tick appended to FILE: which work held the loop, and when. At a
// reduced size a busy tick is what grows with the site: 100 statements in one tick at 100 shares
// may be 10,000 at 10,000.
import { appendFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const histogram = monitorEventLoopDelay({ resolution: 10 });
histogram.enable();

process.on('message', (message) => {
  if (message?.type === 'reset') {
    histogram.reset();
    process.send?.({ type: 'reset' });
  } else if (message?.type === 'read') {
    process.send?.({ type: 'read', loopDelayMaxMs: histogram.max / 1e6, loopDelayP99Ms: histogram.percentile(99) / 1e6 });
  }
});
// The channel must not keep a stopping server alive.
process.channel?.unref();

const traceFile = process.env.BENCH_LOOP_TRACE;
if (traceFile) {
  const Database = createRequire(import.meta.resolve('@dms/core'))('better-sqlite3');
  const probe = new Database(':memory:');
  const statementProto = Object.getPrototypeOf(probe.prepare('select 1'));
  probe.close();
  /** SQL → { n, ms, max } since the last turn. */
  let since = new Map();
  let statements = 0;
  for (const method of ['run', 'get', 'all', 'iterate']) {
    const original = statementProto[method];
    statementProto[method] = function timed(...args) {
      const started = performance.now();
      try {
        return original.apply(this, args);
      } finally {
        const ms = performance.now() - started;
        const key = this.source.replace(/\s+/g, ' ').slice(0, 160);
        const entry = since.get(key) ?? { n: 0, ms: 0, max: 0 };
        entry.n++;
        entry.ms += ms;
        entry.max = Math.max(entry.max, ms);
        since.set(key, entry);
        statements++;
      }
    };
  }
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    const lateMs = now - last - 10;
    if (lateMs > 20 || statements >= 30) {
      const top = [...since.entries()]
        .sort((a, b) => b[1].ms - a[1].ms)
        .slice(0, 6)
        .map(([sql, e]) => ({ sql, n: e.n, ms: Math.round(e.ms * 10) / 10, max: Math.round(e.max * 10) / 10 }));
      const sqlMs = [...since.values()].reduce((sum, e) => sum + e.ms, 0);
      appendFileSync(traceFile, JSON.stringify({ at: new Date().toISOString(), lateMs: Math.round(lateMs), statements, sqlMs: Math.round(sqlMs), top }) + '\n');
    }
    since = new Map();
    statements = 0;
    last = performance.now();
  }, 10).unref();
}
