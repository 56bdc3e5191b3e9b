import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { runStorageContract } from '../../testing/storage-contract.js';
import { createAesGcmSecretBox } from '../aes-gcm/aes-gcm-secret-box.js';
import { openSqliteStorage } from './sqlite-storage.js';
import { databaseFiles } from './sqlite-file-modes.js';

/**
 * Finding 11 (secrets at rest), at the storage: SNMP communities are sealed in the rows and
 * opened for every reader, clear rows of earlier versions are sealed at start without a
 * clear copy left in the files, and the files are the owner's alone.
 */

const dir = mkdtempSync(join(tmpdir(), 'dms-sealed-'));
const secrets = createAesGcmSecretBox(randomBytes(32));
let n = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

runStorageContract('sqlite file, communities sealed', async () => openSqliteStorage({ file: join(dir, `contract-${n++}.sqlite`), secrets }));

const trap = { activation: 1, version: 'v2c' as const, manager: 'nms:162', severity_low: 1, severity_high: 5 };

function fileBytes(file: string): Buffer {
  return Buffer.concat(
    databaseFiles(file)
      .filter((path) => existsSync(path))
      .map((path) => readFileSync(path)),
  );
}

/** The communities as stored, read past the storage. */
function storedCommunities(file: string): string[] {
  const raw = new BetterSqlite3(file, { readonly: true });
  try {
    const rows = raw.prepare('select community from snmp_traps union all select community from snmp_server_configuration').all() as Array<{
      community: string;
    }>;
    return rows.map((row) => row.community);
  } finally {
    raw.close();
  }
}

const mode = (path: string) => statSync(path).mode & 0o777;

describe('finding 11: SNMP communities sealed at rest (sqlite)', () => {
  it('finding 11: stores trap and agent communities sealed, and every reader sees them in clear', async () => {
    const file = join(dir, 'sealed.sqlite');
    const storage = openSqliteStorage({ file, secrets });
    await storage.migrate();
    const first = await storage.traps.create({ ...trap, community: 'trap-community-Q7xLm' });
    const second = await storage.traps.create({ ...trap, community: 'placeholder' });
    expect(first.community).toBe('trap-community-Q7xLm');
    expect((await storage.traps.update(second.id, { community: 'changed-community-R2vNs' }))?.community).toBe('changed-community-R2vNs');
    expect((await storage.traps.update(first.id, { manager: 'other:162' }))?.community).toBe('trap-community-Q7xLm');
    expect((await storage.snmpConfig.update({ community: 'agent-community-Z9kWp' })).community).toBe('agent-community-Z9kWp');

    expect((await storage.traps.get(first.id))?.community).toBe('trap-community-Q7xLm');
    expect((await storage.traps.listActive()).map((t) => t.community)).toEqual(['trap-community-Q7xLm', 'changed-community-R2vNs']);
    const page = await storage.traps.list({ limit: 10, offset: 0, sort: [], filters: [] });
    expect(page.items.map((t) => t.community)).toEqual(['trap-community-Q7xLm', 'changed-community-R2vNs']);
    expect((await storage.snmpConfig.get()).community).toBe('agent-community-Z9kWp');

    const stored = storedCommunities(file);
    expect(stored).toHaveLength(3);
    for (const value of stored) expect(value).toMatch(/^v1:[A-Za-z0-9+/=]{40,}$/);
    const bytes = fileBytes(file);
    for (const secret of ['trap-community-Q7xLm', 'changed-community-R2vNs', 'agent-community-Z9kWp', 'placeholder']) {
      expect(bytes.includes(Buffer.from(secret)), `the files hold ${secret}`).toBe(false);
    }
    await storage.close();
  });

  it('finding 11: seals the clear communities of an earlier version once at start, leaving no clear copy', async () => {
    const file = join(dir, 'legacy.sqlite');
    // An earlier version: no SecretBox, communities in clear (one that merely looks sealed).
    const legacy = openSqliteStorage({ file });
    await legacy.migrate();
    await legacy.traps.create({ ...trap, community: 'legacy-trap-Kp2Vd' });
    await legacy.traps.create({ ...trap, community: 'v1:legacy-prefixed-Hs8' });
    await legacy.snmpConfig.update({ community: 'legacy-agent-Mw4Tc' });
    await legacy.close();
    expect(fileBytes(file).includes(Buffer.from('legacy-trap-Kp2Vd')), 'the legacy file really holds it in clear').toBe(true);

    const storage = openSqliteStorage({ file, secrets });
    await storage.migrate();
    expect((await storage.traps.listActive()).map((t) => t.community)).toEqual(['legacy-trap-Kp2Vd', 'v1:legacy-prefixed-Hs8']);
    expect((await storage.snmpConfig.get()).community).toBe('legacy-agent-Mw4Tc');
    const sealed = storedCommunities(file);
    for (const value of sealed) expect(value).toMatch(/^v1:[A-Za-z0-9+/=]{40,}$/);
    const bytes = fileBytes(file);
    for (const secret of ['legacy-trap-Kp2Vd', 'legacy-prefixed-Hs8', 'legacy-agent-Mw4Tc']) {
      expect(bytes.includes(Buffer.from(secret)), `the files still hold ${secret}`).toBe(false);
    }
    await storage.close();

    // Once: a second start finds nothing legacy and rewrites nothing.
    const again = openSqliteStorage({ file, secrets });
    await again.migrate();
    expect(storedCommunities(file)).toEqual(sealed);
    await again.close();
  });

  it('finding 11: a sealed community read without the key fails instead of handing out ciphertext', async () => {
    const file = join(dir, 'keyless.sqlite');
    const storage = openSqliteStorage({ file, secrets });
    await storage.migrate();
    const { id } = await storage.traps.create({ ...trap, community: 'needs-the-key' });
    await storage.close();
    const keyless = openSqliteStorage({ file });
    await expect(keyless.traps.get(id)).rejects.toMatchObject({ name: 'DomainError', code: 'internal' });
    await keyless.close();
  });

  it('finding 11: creates a missing directory 0700 and dms.sqlite, -wal and -shm 0600', async () => {
    const dataDir = join(dir, 'fresh', 'data');
    const file = join(dataDir, 'dms.sqlite');
    const storage = openSqliteStorage({ file, secrets });
    await storage.migrate();
    await storage.traps.create({ ...trap, community: 'c' });
    expect(mode(join(dir, 'fresh'))).toBe(0o700);
    expect(mode(dataDir)).toBe(0o700);
    for (const path of databaseFiles(file)) {
      expect(existsSync(path), `${path} exists while the storage is open`).toBe(true);
      expect(mode(path), path).toBe(0o600);
    }
    await storage.close();
  });

  it('finding 11: takes group and other access away from database files an earlier version left 0644', async () => {
    const file = join(dir, 'loose.sqlite');
    // An earlier version's files, still open by it so that -wal and -shm exist.
    const earlier = new BetterSqlite3(file);
    earlier.pragma('journal_mode = WAL');
    earlier.exec('create table t (x)');
    for (const path of databaseFiles(file)) chmodSync(path, 0o644);
    const warnings: string[] = [];
    const storage = openSqliteStorage({ file, secrets, warn: (message) => void warnings.push(message) });
    for (const path of databaseFiles(file)) expect(mode(path), path).toBe(0o600);
    expect(warnings).toEqual([]);
    await storage.close();
    earlier.close();
  });
});
