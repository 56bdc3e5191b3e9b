// What one durable SQLite commit costs on the bench's disk: a one-row insert in WAL mode with
// synchronous = FULL, as the service's storage commits. Each job commits a few times (its
// enqueue with its audit event, its finish, its share's health), and better-sqlite3 waits for
// the fsync on the event loop: this floor says how much of the run that is.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { makeTempDir, percentile, removeTempDir } from '../lib.mjs';

const BetterSqlite3 = createRequire(import.meta.resolve('@dms/core'))('better-sqlite3');

/** Median and p99 (ms) of `count` one-row commits in a fresh database under the temp dir. */
export function sqliteCommitFloor(count = 500) {
  const dir = makeTempDir('dms-bench-commit-');
  const db = new BetterSqlite3(join(dir, 'floor.sqlite'));
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.exec('create table t (id integer primary key, v text not null)');
    const insert = db.prepare('insert into t (v) values (?)');
    const times = [];
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      insert.run('x'.repeat(200));
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    return { medianMs: percentile(times, 50), p99Ms: percentile(times, 99) };
  } finally {
    db.close();
    removeTempDir(dir);
  }
}
