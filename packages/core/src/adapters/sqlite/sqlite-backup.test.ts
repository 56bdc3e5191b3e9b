import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { createAesGcmSecretBox } from '../aes-gcm/aes-gcm-secret-box.js';
import { backupSqliteFile } from './sqlite-backup.js';
import { BackupRefusedError, inspectSqliteBackup, replaceDatabaseFile, secretThatDoesNotOpen } from './sqlite-restore.js';
import { openSqliteStorage } from './sqlite-storage.js';

/**
 * Issue 25 item 3 at the adapter: the copy, what a restore checks in it, and the swap. The real
 * processes (a running `dms serve` under load, the CLI) are in the http-api's backup-restore test.
 */
const dir = mkdtempSync(join(tmpdir(), 'dms-sqlite-backup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = (name: string) => join(dir, `${n++}-${name}`);
const key = createAesGcmSecretBox(randomBytes(32));

/** A dms database with a share whose password is sealed with `key`, left open for writes. */
async function database() {
  const file = fresh('dms.sqlite');
  const storage = openSqliteStorage({ file, secrets: key });
  await storage.migrate();
  const nas = await storage.nas.create({ name: 'filer', host: 'filer.example', type: 'nfs_v4', comment: null, price: null });
  await storage.shares.create({ nas_id: nas.id, name: 'sealed', path: '/export', options: null, username: 'svc', password_enc: key.seal('pw') });
  return { file, storage, nasId: nas.id };
}

async function refusal(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(BackupRefusedError);
    return (error as Error).message;
  }
  throw new Error('not refused');
}

describe('backupSqliteFile', () => {
  it('copies every committed row into one 0600 file with no -wal beside it, and names the snapshot instant', async () => {
    const { file, storage, nasId } = await database();
    for (let i = 0; i < 50; i++) await storage.shares.create({ nas_id: nasId, name: `s-${i}`, path: '/x', options: null, username: null, password_enc: null });
    const committed = Date.now();
    const copy = fresh('copy.sqlite');
    const result = await backupSqliteFile(file, copy);
    await storage.close();
    expect(result.snapshotNotBefore).toBeGreaterThanOrEqual(committed);
    expect(statSync(copy).mode & 0o777).toBe(0o600);
    expect(existsSync(`${copy}-wal`)).toBe(false);
    expect(readdirSync(dir).filter((name) => name.includes('partial'))).toEqual([]);
    const raw = new BetterSqlite3(copy, { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('delete');
    expect((raw.prepare('select count(*) as n from nas_shares').get() as { n: number }).n).toBe(51);
    raw.close();
  });

  it('issue 40 item 9: a file or a symlink planted at a predictable partial name is never written through, and the copy is 0600', async () => {
    const { file, storage } = await database();
    // Another local user's plants, made before the backup: a world-readable file at the old
    // `<dest>.partial-<pid>` name of one destination, a symlink to a file of theirs at the other's.
    const planted = fresh('copy.sqlite');
    const plantedPartial = `${planted}.partial-${process.pid}`;
    writeFileSync(plantedPartial, '');
    chmodSync(plantedPartial, 0o644);
    const linked = fresh('copy.sqlite');
    const theirs = fresh('theirs');
    writeFileSync(theirs, '');
    chmodSync(theirs, 0o666);
    for (const suffix of ['', '-journal', '-wal']) symlinkSync(theirs, `${linked}.partial-${process.pid}${suffix}`);

    for (const destination of [planted, linked]) {
      await backupSqliteFile(file, destination);
      expect(statSync(destination).mode & 0o777).toBe(0o600);
      const raw = new BetterSqlite3(destination, { readonly: true });
      expect((raw.prepare('select count(*) as n from nas_shares').get() as { n: number }).n).toBe(1);
      raw.close();
    }
    await storage.close();
    expect(readFileSync(plantedPartial).length).toBe(0);
    expect(readFileSync(theirs).length).toBe(0);
    expect(readdirSync(dir).filter((name) => name.startsWith('.'))).toEqual([]);
  });
});

describe('inspectSqliteBackup and secretThatDoesNotOpen', () => {
  it('accepts a sound backup and finds its sealed share password; another key cannot open it', async () => {
    const { file, storage } = await database();
    const copy = fresh('copy.sqlite');
    await backupSqliteFile(file, copy);
    await storage.close();
    const inspection = await inspectSqliteBackup(copy);
    expect(inspection.pendingMigrations).toBe(0);
    expect(inspection.sealed.map((sample) => sample.what)).toContain('a share password');
    expect(secretThatDoesNotOpen(inspection.sealed, key)).toBeUndefined();
    expect(secretThatDoesNotOpen(inspection.sealed, createAesGcmSecretBox(randomBytes(32)))).toMatch(/a share password|SNMP/);
  });

  it('refuses a file from a newer dms, a SQLite file that is no dms database, and a file with writes in a -wal beside it', async () => {
    const { file, storage } = await database();
    const copy = fresh('copy.sqlite');
    await backupSqliteFile(file, copy);
    await storage.close();
    const raw = new BetterSqlite3(copy);
    raw.prepare("insert into kysely_migration (name, timestamp) values ('9999_from_the_future', '2030-01-01')").run();
    raw.close();
    expect(await refusal(() => inspectSqliteBackup(copy))).toMatch(
      /comes from a newer dms \(migrations 9999_from_the_future are unknown to this one\): upgrade dms/,
    );

    const other = fresh('other.sqlite');
    const plain = new BetterSqlite3(other);
    plain.exec('create table notes (text text)');
    plain.close();
    expect(await refusal(() => inspectSqliteBackup(other))).toMatch(/not a dms one/);

    const walled = fresh('walled.sqlite');
    writeFileSync(walled, '');
    writeFileSync(`${walled}-wal`, 'frames');
    expect(await refusal(() => inspectSqliteBackup(walled))).toMatch(/has a .*-wal beside it/);
    expect(await refusal(() => inspectSqliteBackup(fresh('missing.sqlite')))).toMatch(/does not exist/);
  });
});

describe('issue 40 item 10: a backup whose schema differs from what its migrations create', () => {
  async function backupChangedBy(change: string) {
    const { file, storage } = await database();
    const copy = fresh('copy.sqlite');
    await backupSqliteFile(file, copy);
    await storage.close();
    const raw = new BetterSqlite3(copy);
    raw.exec(change);
    raw.close();
    return copy;
  }

  it('issue 40 item 10: a backup with an added trigger is refused, naming the trigger', async () => {
    const copy = await backupChangedBy(
      "create trigger erase_audit after insert on audit_events begin delete from audit_events where id = new.id; update users set admin = 1 where username = 'mallory'; end",
    );
    expect(await refusal(() => inspectSqliteBackup(copy))).toMatch(
      /holds a trigger "erase_audit" \(on audit_events\) that dms never creates.*restore another backup/,
    );
  });

  it('issue 40 item 10: a backup with an added view is refused, naming the view', async () => {
    const copy = await backupChangedBy('create view admins as select username, password_hash from users where admin = 1');
    expect(await refusal(() => inspectSqliteBackup(copy))).toMatch(/holds a view "admins" \(on admins\) that dms never creates/);
  });

  it('issue 40 item 10: a backup with an altered table is refused, naming the table', async () => {
    const copy = await backupChangedBy('alter table users add column note text');
    expect(await refusal(() => inspectSqliteBackup(copy))).toMatch(
      /holds a table "users" that differs from the one dms creates \(CREATE TABLE users .*note text\)/,
    );
    const dropped = await backupChangedBy('drop index nas_shares_name_id_desc');
    expect(await refusal(() => inspectSqliteBackup(dropped))).toMatch(/holds no index "nas_shares_name_id_desc", which dms creates/);
  });

  it('issue 40 item 10: a genuine backup, analyzed or not, restores', async () => {
    const copy = await backupChangedBy('analyze');
    expect((await inspectSqliteBackup(copy)).pendingMigrations).toBe(0);
  });
});

describe('replaceDatabaseFile', () => {
  it('keeps the database it replaces and its -wal under one before-restore name, and puts the backup in place', () => {
    const target = fresh('dms.sqlite');
    writeFileSync(target, 'old database');
    writeFileSync(`${target}-wal`, 'old wal');
    const backup = fresh('backup.sqlite');
    writeFileSync(backup, 'the backup');
    const kept = replaceDatabaseFile(backup, target, new Date('2026-11-25T10:00:00.000Z'));
    expect(kept).toBe(`${target}.before-restore-2026-11-25T10-00-00-000Z`);
    expect(existsSync(`${kept}-wal`)).toBe(true);
    expect(existsSync(`${target}-wal`)).toBe(false);
    expect(statSync(target).mode & 0o777).toBe(0o600);
    expect(statSync(target).size).toBe('the backup'.length);
  });
});
