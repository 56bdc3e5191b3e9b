// Seeds a fresh data dir before the server starts: migrate with the real storage, then bulk
// insert 1 NAS and 100,000 shares with better-sqlite3 in one transaction.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { openSqliteStorage } from '@dms/core/sqlite';

// better-sqlite3 is a dependency of @dms/core: resolve it from there.
const requireFromCore = createRequire(import.meta.resolve('@dms/core'));
const BetterSqlite3 = requireFromCore('better-sqlite3');

export const shareName = (i) => `share-${String(i).padStart(6, '0')}`;

/** Deterministic pseudo-random order (LCG), so every run shows the same ids. */
function shuffled(values) {
  let state = 0x2545f491;
  const out = [...values];
  for (let i = out.length - 1; i > 0; i--) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/**
 * @returns {{ file: string, nasId: number, showIds: number[], bodies: Map<number, string> }}
 * bodies: the exact JSON `GET /nas_shares/{id}` should answer (no password scope).
 */
export async function seed(dataDir, { shares = 100_000, showCount = 10_000 } = {}) {
  const file = join(dataDir, 'dms.sqlite');
  const storage = openSqliteStorage({ file });
  await storage.migrate();
  await storage.close();

  const db = new BetterSqlite3(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const at = new Date().toISOString();
  const nasId = Number(
    db.prepare('insert into nas (name, host, type, comment, price, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?)').run('nas-bench', 'filer.example.com', 'smb_v3', 'seeded by bench', null, at, at).lastInsertRowid,
  );
  const insert = db.prepare(
    'insert into nas_shares (nas_id, name, path, options, username, password_enc, file_count, file_size_sum, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const ids = [];
  db.transaction(() => {
    for (let i = 0; i < shares; i++) {
      const name = shareName(i);
      const fileCount = (i * 7919) % 100_000;
      const result = insert.run(nasId, name, `/export/vol${i % 16}/${name}`, i % 3 === 0 ? 'ro,vers=3' : null, i % 2 ? `user${i % 50}` : null, null, fileCount, fileCount * 4096 + i, at, at);
      ids.push(Number(result.lastInsertRowid));
    }
  })();

  // The show set: every 10th share, in a fixed shuffled order.
  const step = Math.max(1, Math.floor(shares / showCount));
  const showIds = shuffled(ids.filter((_, index) => index % step === 0).slice(0, showCount));
  const select = db.prepare('select id, nas_id, pool_id, name, path, options, username, file_count, file_size_sum from nas_shares where id = ?');
  const bodies = new Map();
  for (const id of showIds) {
    const row = select.get(id);
    // Key order as the API answers (storage column order, password_enc removed).
    bodies.set(id, JSON.stringify({ id: row.id, nas_id: row.nas_id, pool_id: row.pool_id, name: row.name, path: row.path, options: row.options, username: row.username, file_count: row.file_count, file_size_sum: row.file_size_sum }));
  }
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return { file, nasId, showIds, bodies };
}
