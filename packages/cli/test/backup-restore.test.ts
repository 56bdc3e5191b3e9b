import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, openSync, readdirSync, rmSync, writeFileSync, writeSync, closeSync, statSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../src/commands.js';

/**
 * Issue 25 item 3: `dms backup` beside a real `dms serve` under write load, `dms restore` into a
 * fresh data dir, and a real server on the restored database — every process a real one.
 */
const cliMain = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const password = 'backup-test-password';
const auth = `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;

interface Server {
  child: ChildProcess;
  url: string;
  exited: Promise<number | null>;
}

function dmsProcess(args: string[], dataDir: string) {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', cliMain, ...args], {
    env: { ...process.env, DMS_DATA_DIR: dataDir, DMS_PORT: '0', DMS_ADMIN_PASSWORD: password, DMS_LOG_LEVEL: 'info', DMS_RATE_LIMIT_PER_MINUTE: '1000000' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output, exited: new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code))) };
}

/** A short CLI command in its own process: its exit code and what it printed. */
async function dms(args: string[], dataDir: string): Promise<{ code: number | null; output: string }> {
  const run = dmsProcess(args, dataDir);
  const code = await run.exited;
  return { code, output: run.output() };
}

/**
 * The same command run in this process (a real data dir and real files, not a mock): the
 * refusals, where a process start per case would only add seconds.
 */
async function dmsHere(args: string[], dataDir: string): Promise<{ code: number; output: string }> {
  vi.stubEnv('DMS_DATA_DIR', dataDir);
  vi.stubEnv('DMS_SECRET_KEY', undefined);
  vi.stubEnv('DMS_DATABASE_URL', undefined);
  let output = '';
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((text) => ((output += String(text)), true));
  try {
    const code = await runCli(args, (line) => (output += line + '\n'));
    return { code, output };
  } finally {
    stderr.mockRestore();
    vi.unstubAllEnvs();
  }
}

const running: Server[] = [];

async function serve(dataDir: string): Promise<Server> {
  const started = dmsProcess(['serve'], dataDir);
  const url = await new Promise<string>((resolve, reject) => {
    const look = () => {
      const found = /"url":"(http:\/\/[^"]+?)\/api\/v2"/.exec(started.output())?.[1];
      if (found) return resolve(found);
      if (started.child.exitCode !== null) return reject(new Error(`dms exited before serving: ${started.output()}`));
      setTimeout(look, 20);
    };
    look();
  });
  const server = { child: started.child, url, exited: started.exited };
  running.push(server);
  return server;
}

async function stop(server: Server): Promise<void> {
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
}

async function call(server: Server, method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${server.url}/api/v2${path}`, {
    method,
    headers: { authorization: auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

interface SavedShare {
  id: number;
  name: string;
  password: string | null;
}

/** Every share the server lists, with its password (admin: get_password), page after page. */
async function allShares(server: Server): Promise<Map<string, SavedShare>> {
  const shares = new Map<string, SavedShare>();
  for (let page = 1; ; page++) {
    const { status, body } = await call(server, 'GET', `/nas_shares?per_page=100&page=${page}`);
    expect(status).toBe(200);
    const found = body['nas_shares'] as SavedShare[];
    for (const share of found) shares.set(share.name, share);
    if (found.length < 100) return shares;
  }
}

function tempDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `dms-${name}-`));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const cleanups: Array<() => void> = [];

afterEach(async () => {
  for (const server of running.splice(0)) {
    if (server.child.exitCode === null) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
  }
  for (const cleanup of cleanups.splice(0)) cleanup();
  vi.unstubAllEnvs();
});

/** A data dir with a NAS and a share whose password is sealed, and a backup of it taken while it runs. */
async function backedUpDataDir(): Promise<{ dataDir: string; backup: string; server: Server }> {
  const dataDir = tempDir('backup-source');
  const server = await serve(dataDir);
  expect((await call(server, 'POST', '/nas', { name: 'filer', host: 'filer.example', type: 'nfs_v4' })).status).toBe(201);
  expect(
    (await call(server, 'POST', '/nas/filer/nas_shares', { name: 'sealed', path: '/export', username: 'svc', password: 'the-share-password' })).status,
  ).toBe(201);
  const backup = join(tempDir('backups'), 'dms-backup.sqlite');
  const taken = await dms(['backup', backup], dataDir);
  expect(taken.code, taken.output).toBe(0);
  return { dataDir, backup, server };
}

describe('dms backup and dms restore (issue 25 item 3)', () => {
  it('a backup taken under write load and restored into a fresh data dir holds every write acknowledged before it began, sealed passwords readable', async () => {
    const dataDir = tempDir('backup-load');
    const server = await serve(dataDir);
    expect((await call(server, 'POST', '/nas', { name: 'filer', host: 'filer.example', type: 'nfs_v4' })).status).toBe(201);

    // Four writers create shares (each with a sealed password) until told to stop; each 201 is
    // recorded with the wall-clock instant its answer arrived.
    const acknowledged: Array<{ name: string; at: number }> = [];
    let writing = true;
    let next = 0;
    const writer = async () => {
      while (writing) {
        const name = `share-${next++}`;
        const { status } = await call(server, 'POST', '/nas/filer/nas_shares', { name, path: `/export/${name}`, password: `pw-${name}` });
        if (status === 201) acknowledged.push({ name, at: Date.now() });
        else {
          writing = false;
          throw new Error(`create ${name} answered ${status}`);
        }
      }
    };
    const writers = Promise.all([writer(), writer(), writer(), writer()]);
    while (acknowledged.length < 50) await new Promise((resolve) => setTimeout(resolve, 20));

    const backup = join(tempDir('backups'), 'under-load.sqlite');
    const cliStarted = Date.now();
    const taken = await dms(['backup', backup], dataDir);
    const cliEnded = Date.now();
    expect(taken.code, taken.output).toBe(0);
    // Writes went on while the backup ran: it was taken under load, not in a pause.
    const ackedDuring = () => acknowledged.filter(({ at }) => at > cliStarted && at < cliEnded).length;
    while (ackedDuring() === 0 && Date.now() - cliEnded < 5000) await new Promise((resolve) => setTimeout(resolve, 20));
    writing = false;
    await writers;
    expect(ackedDuring()).toBeGreaterThan(0);

    const snapshot = Date.parse(/every write committed before (\S+) is in it/.exec(taken.output)?.[1] ?? '');
    expect(snapshot).toBeGreaterThanOrEqual(cliStarted);
    expect(snapshot).toBeLessThanOrEqual(cliEnded);
    expect(taken.output).toContain(`the secret key ${join(dataDir, 'secret.key')} is not in the backup`);
    const before = acknowledged.filter(({ at }) => at < snapshot);
    expect(before.length).toBeGreaterThanOrEqual(50);
    await stop(server);

    // A fresh data dir that holds only the key kept apart from the backup.
    const restoredDir = tempDir('backup-restored');
    copyFileSync(join(dataDir, 'secret.key'), join(restoredDir, 'secret.key'));
    const restored = await dms(['restore', backup], restoredDir);
    expect(restored.code, restored.output).toBe(0);
    expect(restored.output).toMatch(/restored .* integrity checked, \d+ migrations, its sealed secrets open with/);

    const again = await serve(restoredDir);
    const shares = await allShares(again);
    const missing = before.filter(({ name }) => shares.get(name)?.password !== `pw-${name}`).map(({ name }) => name);
    expect(missing).toEqual([]);
    // The restored service takes writes too.
    expect((await call(again, 'POST', '/nas/filer/nas_shares', { name: 'after-restore', path: '/export/after' })).status).toBe(201);
  }, 300_000);

  it('restore refuses a running data dir, a damaged file, a file that is no dms database, a backup sealed with another key, and a data dir without a key; nothing changes', async () => {
    const { dataDir, backup, server } = await backedUpDataDir();

    const onRunning = await dmsHere(['restore', backup], dataDir);
    expect(onRunning.code).toBe(1);
    expect(onRunning.output).toMatch(/is in use by a running dms \(process \d+\): stop it, then run 'dms restore' again; nothing was changed/);
    expect((await call(server, 'GET', '/nas_shares')).status).toBe(200);
    await stop(server);

    // Damaged: a table page overwritten in the middle of the copy.
    const damaged = join(tempDir('damaged'), 'damaged.sqlite');
    copyFileSync(backup, damaged);
    const pageSize = 4096;
    const fd = openSync(damaged, 'r+');
    for (let page = 2; page * pageSize < statSync(damaged).size; page += 3) writeSync(fd, randomBytes(200), 0, 200, page * pageSize + 8);
    closeSync(fd);
    const fresh = tempDir('restore-refused');
    copyFileSync(join(dataDir, 'secret.key'), join(fresh, 'secret.key'));
    const onDamaged = await dmsHere(['restore', damaged], fresh);
    expect(onDamaged.code).toBe(1);
    expect(onDamaged.output).toMatch(/dms: .*damaged\.sqlite (is damaged|cannot be opened).*; nothing was changed/);

    const notDms = join(tempDir('not-dms'), 'notes.sqlite');
    writeFileSync(notDms, 'these are notes, not a database\n'.repeat(200));
    const onNotDms = await dmsHere(['restore', notDms], fresh);
    expect(onNotDms.code).toBe(1);
    expect(onNotDms.output).toMatch(/notes\.sqlite cannot be opened as a SQLite database .*nothing was changed/);

    const otherKey = tempDir('restore-other-key');
    writeFileSync(join(otherKey, 'secret.key'), randomBytes(32).toString('hex') + '\n', { mode: 0o600 });
    const onOtherKey = await dmsHere(['restore', backup], otherKey);
    expect(onOtherKey.code).toBe(1);
    expect(onOtherKey.output).toMatch(
      /the secret key \(.*secret\.key\) cannot open .* sealed in .*: the backup was sealed with another key; put the secret\.key kept/,
    );

    const noKey = tempDir('restore-no-key');
    const onNoKey = await dmsHere(['restore', backup], noKey);
    expect(onNoKey.code).toBe(1);
    expect(onNoKey.output).toMatch(/has no secret key, and .* holds secrets sealed with one/);

    for (const dir of [fresh, otherKey, noKey]) expect(existsSync(join(dir, 'dms.sqlite')), dir).toBe(false);

    // The stopped source itself: the backup goes in, the database it replaces is kept aside.
    const onStopped = await dms(['restore', backup], dataDir);
    expect(onStopped.code, onStopped.output).toBe(0);
    expect(readdirSync(dataDir).filter((name) => name.startsWith('dms.sqlite.before-restore-'))).toHaveLength(1);
    const back = await serve(dataDir);
    const shares = await allShares(back);
    expect(shares.get('sealed')?.password).toBe('the-share-password');
  }, 300_000);

  it('on PostgreSQL, backup and restore name pg_dump and pg_restore instead', async () => {
    vi.stubEnv('DMS_DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/dms');
    vi.stubEnv('DMS_DATA_DIR', tempDir('pg'));
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(await runCli(['backup', 'dms.dump'], () => {})).toBe(1);
      expect(await runCli(['restore', 'dms.dump'], () => {})).toBe(1);
      const printed = stderr.mock.calls.map(([text]) => String(text)).join('');
      expect(printed).toContain('on PostgreSQL use pg_dump: pg_dump --format=custom');
      expect(printed).toContain('use pg_restore: pg_restore --clean --if-exists');
    } finally {
      stderr.mockRestore();
    }
  });

  it('backup refuses a data dir without a database, in one line', async () => {
    const empty = tempDir('backup-empty');
    const none = await dms(['backup', join(empty, 'copy.sqlite')], empty);
    expect(none.code).toBe(1);
    expect(none.output).toContain(`dms: no dms database at ${join(empty, 'dms.sqlite')}; set DMS_DATA_DIR`);
  }, 60_000);
});
