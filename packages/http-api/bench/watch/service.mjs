// A dms service as `dms serve` runs it (openDms, role 'service': job workers, scheduler, alert
// sources, traps) in the bench's own process, over a database seeded with many local shares.
// Its clock is the real one plus an offset the bench moves: a schedule's first occurrence is
// set in the future, and the bench jumps the clock to it when it is ready to measure, instead
// of waiting for the wall clock's next minute. The service's log and events say when each job
// was queued and when each finished.
import { join } from 'node:path';
import { openDms } from '@dms/core/runtime';
import { makeTempDir } from '../lib.mjs';
import { createBenchDatabase } from '../pg-bench.mjs';
import { seedPostgresShares, seedSqliteShares, shareDirectories } from './seed-shares.mjs';

const finishedEvents = new Set(['share_test_completed', 'share_test_failed', 'share_scan_completed', 'share_scan_failed']);

/**
 * Times of the jobs a service queued (its audit lines, by actor name) and finished (its job
 * events), and waits on them.
 */
class JobTimes {
  queued = [];
  queuedBy = new Map();
  finished = 0;
  failed = 0;
  lastFinishedAt = NaN;
  #waiters = [];

  noteQueued(actor) {
    this.queued.push(performance.now());
    this.queuedBy.set(actor, (this.queuedBy.get(actor) ?? 0) + 1);
    this.#wake();
  }

  noteFinished(name) {
    this.finished += 1;
    if (name.endsWith('_failed')) this.failed += 1;
    this.lastFinishedAt = performance.now();
    this.#wake();
  }

  #wake() {
    for (const waiter of this.#waiters.splice(0)) waiter();
  }

  /** Resolves at the next job queued or finished, or after `ms` (a lost wake-up costs only time). */
  nextChange(ms = 1_000) {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.#waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Resolves once `done()` holds, looked at after each change; rejects after `timeoutMs`. */
  async until(done, what, timeoutMs) {
    const deadline = performance.now() + timeoutMs;
    while (!done()) {
      if (performance.now() > deadline)
        throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what} (${this.queued.length} jobs queued, ${this.finished} finished)`);
      await this.nextChange();
    }
  }
}

/**
 * Seeds `shares` local shares on `adapter` (a data dir of its own; on PostgreSQL a database of
 * its own on `pgServerUrl` too), then opens the service over it. Resolves the Dms, its clock
 * offset control, its job times, and close() (the service, then the database).
 */
export async function openSeededService({ adapter, pgServerUrl, shares, directories: dirCount = 8, jobConcurrency }) {
  const dataDir = makeTempDir('dms-bench-watch-');
  const directories = shareDirectories(join(dataDir, 'shares'), dirCount);
  let database;
  if (adapter === 'postgres') {
    database = await createBenchDatabase(pgServerUrl);
    await seedPostgresShares(database.url, { count: shares, directories });
  } else {
    await seedSqliteShares(dataDir, { count: shares, directories });
  }
  const clock = { offsetMs: 0 };
  const times = new JobTimes();
  const log = {
    info: (fields) => {
      if (fields.audit === true && (fields.action === 'test' || fields.action === 'scan')) times.noteQueued(fields.actor?.name);
    },
    warn: () => {},
    error: (fields, message) => process.stderr.write(`[dms] ${message}: ${fields.err?.message ?? ''}\n`),
  };
  const dms = await openDms({
    role: 'service',
    dataDir,
    ...(database ? { databaseUrl: database.url } : {}),
    localRoots: [join(dataDir, 'shares')],
    adminPassword: 'watch-bench-admin-password',
    // No trap target is configured: the sender is never asked to send.
    trapSender: { send: async () => {}, close: () => {} },
    ...(jobConcurrency === undefined ? {} : { jobConcurrency }),
    log,
    core: { clock: () => new Date(Date.now() + clock.offsetMs) },
  });
  const unsubscribe = dms.events.subscribe((event) => {
    if (finishedEvents.has(event.name)) times.noteFinished(event.name);
  });
  return {
    dms,
    clock,
    times,
    dataDir,
    close: async () => {
      unsubscribe();
      await dms.close();
      await database?.drop();
    },
  };
}
