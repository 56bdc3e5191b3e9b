// Preloaded into the dms server under test (`node --import loop-probe.mjs … serve`): the
// event loop's delay histogram (perf_hooks.monitorEventLoopDelay), reset and read by the bench
// over the IPC channel. It adds a 10 ms-resolution timer and nothing else to the server.
//
// BENCH_LOOP_TRACE=FILE (a diagnosis, off by default): also a 10 ms timer that notes each tick
// late by more than 20 ms or busy (30 statements or more since the tick before), with those
// statements (better-sqlite3's Statement methods timed: count, total ms, the costliest by their
// SQL; the garbage collections and the heap), one JSON line per such tick appended to FILE, and
// one per bench phase (reset to read) with every statement's totals: which work held the loop,
// and when. At a reduced size a busy tick is what grows with the site: 100 statements in one
// tick at 100 shares may be 10,000 at 10,000.
import { appendFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';

const histogram = monitorEventLoopDelay({ resolution: 10 });
histogram.enable();
/** With the trace: told of each reset and read (the statements since the reset, in all). */
const phases = { reset: () => {}, read: () => {} };

process.on('message', (message) => {
  if (message?.type === 'reset') {
    histogram.reset();
    phases.reset();
    process.send?.({ type: 'reset' });
  } else if (message?.type === 'read') {
    phases.read();
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
  // BENCH_WAL_AUTOCHECKPOINT=N (with the trace): the server's connection checkpoints its -wal
  // every N pages instead of SQLite's 1,000 (0: never): how much of the loop the checkpoints,
  // run inside a commit, take.
  const autocheckpoint = process.env.BENCH_WAL_AUTOCHECKPOINT;
  if (autocheckpoint !== undefined) {
    const pragma = Database.prototype.pragma;
    Database.prototype.pragma = function withAutocheckpoint(source, options) {
      const answer = pragma.call(this, source, options);
      if (/^journal_mode\s*=\s*WAL$/i.test(source)) pragma.call(this, `wal_autocheckpoint = ${Number(autocheckpoint)}`);
      return answer;
    };
  }
  /** SQL → { n, ms, max } since the last turn. */
  let since = new Map();
  let statements = 0;
  /** SQL → { n, ms, max } since the bench's last reset. */
  let phase = new Map();
  phases.reset = () => (phase = new Map());
  phases.read = () => {
    const all = [...phase.entries()].sort((a, b) => b[1].ms - a[1].ms);
    const round = (x) => Math.round(x * 10) / 10;
    const sum = (pick) => round(all.reduce((total, [, e]) => total + pick(e), 0));
    const writes = all.filter(([sql]) => /^\s*(commit|insert|update|delete)/i.test(sql));
    appendFileSync(
      traceFile,
      JSON.stringify({
        at: new Date().toISOString(),
        phase: {
          statements: sum((e) => e.n),
          ms: sum((e) => e.ms),
          commits: phase.get('commit')?.n ?? 0,
          writes: writes.reduce((n, [, e]) => n + e.n, 0),
          writeMs: round(writes.reduce((n, [, e]) => n + e.ms, 0)),
        },
        top: all.slice(0, 30).map(([sql, e]) => ({ sql, n: e.n, ms: round(e.ms), max: round(e.max) })),
      }) + '\n',
    );
  };
  for (const method of ['run', 'get', 'all', 'iterate']) {
    const original = statementProto[method];
    statementProto[method] = function timed(...args) {
      const started = performance.now();
      try {
        return original.apply(this, args);
      } finally {
        const ms = performance.now() - started;
        const key = this.source.replace(/\s+/g, ' ');
        const entry = since.get(key) ?? { n: 0, ms: 0, max: 0 };
        entry.n++;
        entry.ms += ms;
        entry.max = Math.max(entry.max, ms);
        since.set(key, entry);
        const total = phase.get(key) ?? { n: 0, ms: 0, max: 0 };
        total.n++;
        total.ms += ms;
        total.max = Math.max(total.max, ms);
        phase.set(key, total);
        statements++;
      }
    };
  }
  /** Garbage collections since the last tick: kind and ms (a pause of the loop too). */
  let collections = [];
  const gcKinds = { 1: 'scavenge', 2: 'mark-compact', 4: 'incremental', 8: 'weak-callbacks' };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) collections.push(`${gcKinds[entry.detail?.kind] ?? entry.detail?.kind} ${entry.duration.toFixed(1)}`);
  }).observe({ entryTypes: ['gc'] });
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
      const heapMb = Math.round(process.memoryUsage().heapUsed / 1e6);
      appendFileSync(
        traceFile,
        JSON.stringify({ at: new Date().toISOString(), lateMs: Math.round(lateMs), statements, sqlMs: Math.round(sqlMs), heapMb, collections, top }) + '\n',
      );
    }
    since = new Map();
    statements = 0;
    collections = [];
    last = performance.now();
  }, 10).unref();
}
