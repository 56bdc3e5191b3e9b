import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { systemPrincipal } from '../scopes/principal.js';
import { requireTools } from '../testing/require-tool.js';
import { openDms, type Dms, type OpenDmsOptions, type StartStep } from './open-dms.js';
import { loadSecretKey, SecretKeyFileError } from './secret-key.js';

const run = promisify(execFile);

/** Issue 21 (faults), at start: a data dir whose database went, and the secret key file. */
describe('issue 21: start-up faults', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const newDataDir = () => {
    const root = mkdtempSync(join(tmpdir(), 'dms-start-faults-'));
    cleanups.push(() => rmSync(root, { recursive: true, force: true }));
    return join(root, 'data');
  };
  const open = async (options: OpenDmsOptions): Promise<Dms> => {
    const dms = await openDms(options);
    cleanups.push(() => dms.close());
    return dms;
  };
  // Missing strace skips with its reason here and fails under CI=true, where .ci/run installs it.
  const strace = requireTools(['strace'], 'apt-get install strace').paths['strace'];
  const service = (dataDir: string): OpenDmsOptions => ({ dataDir, role: 'service', adminPassword: 'start-faults-password' });

  it('item 21.2: a data dir whose database was deleted is refused at start, naming the restore and `dms migrate --init`; --init starts over on purpose', async () => {
    const dataDir = newDataDir();
    await (await openDms(service(dataDir))).close();
    for (const name of readdirSync(dataDir)) if (name.startsWith('dms.sqlite')) rmSync(join(dataDir, name));

    for (const options of [service(dataDir), { dataDir, role: 'command' as const, createDatabase: true }]) {
      await expect(openDms(options)).rejects.toMatchObject({
        name: 'DatabaseMissingError',
        message: expect.stringMatching(/has held a dms database \(secret\.key is there\).*Restore .*dms\.sqlite from your backup.*dms migrate --init/),
      });
      expect(existsSync(join(dataDir, 'dms.sqlite')), 'nothing was created').toBe(false);
    }
    // An empty file in its place is no database either.
    writeFileSync(join(dataDir, 'dms.sqlite'), '');
    await expect(openDms(service(dataDir))).rejects.toMatchObject({ name: 'DatabaseMissingError' });

    const migrated = await open({ dataDir, role: 'command', createDatabase: true, initDatabase: true });
    await migrated.close();
    const again = await open(service(dataDir));
    expect(again.firstAdmin.created).toBe(true);
  });

  it('item 21.2: with DMS_SECRET_KEY (no key file) the lock file a service left is the evidence', async () => {
    const dataDir = newDataDir();
    const secretKey = 'a'.repeat(64);
    await (await openDms({ ...service(dataDir), secretKey })).close();
    expect(existsSync(join(dataDir, 'secret.key'))).toBe(false);
    rmSync(join(dataDir, 'dms.sqlite'));
    await expect(openDms({ ...service(dataDir), secretKey })).rejects.toMatchObject({
      name: 'DatabaseMissingError',
      message: expect.stringContaining('(dms.lock is there)'),
    });
  });

  it('item 21.3: an empty or short secret.key is a start-up error naming the file and what to do', async () => {
    const dataDir = newDataDir();
    await (await openDms(service(dataDir))).close();
    const file = join(dataDir, 'secret.key');
    for (const [content, problem] of [
      ['', 'is empty'],
      ['0123abcd\n', 'does not hold a key'],
    ] as const) {
      writeFileSync(file, content);
      expect(() => loadSecretKey(undefined, dataDir)).toThrow(SecretKeyFileError);
      await expect(openDms(service(dataDir))).rejects.toMatchObject({
        name: 'SecretKeyFileError',
        message: expect.stringMatching(new RegExp(`${file.replaceAll('/', '\\/')} ${problem}.*restore .*secret\\.key from your backup.*DMS_SECRET_KEY`)),
      });
    }
  });

  it('item 21.3: a new secret.key is complete, 0600, under its name only (no temporary file left)', () => {
    const dataDir = newDataDir();
    const key = loadSecretKey(undefined, dataDir);
    const file = join(dataDir, 'secret.key');
    expect(readFileSync(file, 'utf8')).toBe(key.toString('hex') + '\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dataDir)).toEqual(['secret.key']);
    expect(loadSecretKey(undefined, dataDir).equals(key)).toBe(true);
  });

  /**
   * A real first start in a child process, SIGKILLed right after `step` (by itself) or at the
   * `walWrite`-th write to the database's -wal (by strace): what a power cut or an OOM kill at
   * that point leaves in the data dir.
   */
  async function firstStartKilled(dataDir: string, at: { step: StartStep } | { walWrite: number; strace: string }): Promise<void> {
    const step = 'step' in at ? at.step : undefined;
    const script = [
      `import { openDms } from ${JSON.stringify(new URL('./open-dms.ts', import.meta.url).pathname)};`,
      `await openDms({ dataDir: ${JSON.stringify(dataDir)}, role: 'service', adminPassword: 'start-faults-password',`,
      `  onStartStep: (step) => { if (step === ${JSON.stringify(step)}) process.kill(process.pid, 'SIGKILL'); } });`,
      `process.exit(3);`,
    ].join('\n');
    const node = [process.execPath, '--import', 'tsx', '--input-type=module', '-e', script];
    mkdirSync(dataDir, { recursive: true });
    const [command, ...args] =
      'step' in at
        ? node
        : [
            at.strace,
            '-f',
            '-qq',
            '-o',
            '/dev/null',
            '-P',
            join(dataDir, 'dms.sqlite-wal'),
            '-e',
            'trace=pwrite64',
            '-e',
            `inject=pwrite64:signal=SIGKILL:when=${at.walWrite}`,
            ...node,
          ];
    await expect(run(command!, args)).rejects.toMatchObject({ signal: 'SIGKILL' });
  }

  async function expectRestartEndsWithOneAdmin(dataDir: string): Promise<void> {
    const dms = await open(service(dataDir));
    expect(dms.firstAdmin.created).toBe(true);
    const users = await dms.core.users.list(systemPrincipal, {});
    expect(users.users.map((user) => user.username)).toEqual(['admin']);
    expect(existsSync(join(dataDir, 'first-start-unfinished'))).toBe(false);
    await dms.close();
    // Once started, a lost database is refused as before.
    for (const name of readdirSync(dataDir)) if (name.startsWith('dms.sqlite')) rmSync(join(dataDir, name));
    await expect(openDms(service(dataDir))).rejects.toMatchObject({ name: 'DatabaseMissingError' });
  }

  const killPoints: StartStep[] = ['locked', 'key', 'database-file', 'migrated', 'before-first-admin'];
  it.each(killPoints)('issue 40 item 13: a first start killed after "%s" starts again and ends with an admin', async (step) => {
    const dataDir = newDataDir();
    await firstStartKilled(dataDir, { step });
    await expectRestartEndsWithOneAdmin(dataDir);
  });

  it.skipIf(!strace)('issue 40 item 13: a first start killed part-way through its migrations starts again (strace SIGKILL at a -wal write)', async () => {
    const dataDir = newDataDir();
    // The 40th write lands inside the first migration's statements when they run one by one.
    await firstStartKilled(dataDir, { walWrite: 40, strace: strace! });
    await expectRestartEndsWithOneAdmin(dataDir);
  });

  // The order of the system calls is the durability: flushed before it has its name, the
  // name flushed with its directory. strace shows it on a real process.
  it.skipIf(!strace)(
    'item 21.3: the key is flushed before it is linked to its name, and the data dir flushed after (strace of a real process)',
    async (context) => {
      const dataDir = newDataDir();
      const script = `import { loadSecretKey } from ${JSON.stringify(new URL('./secret-key.ts', import.meta.url).pathname)}; loadSecretKey(undefined, ${JSON.stringify(dataDir)});`;
      let trace: string;
      try {
        const output = join(dataDir, '..', 'strace.out');
        await run(strace!, [
          '-f',
          '-e',
          'trace=openat,fsync,link,linkat,rename,renameat,renameat2',
          '-o',
          output,
          process.execPath,
          '--import',
          'tsx',
          '--input-type=module',
          '-e',
          script,
        ]);
        trace = readFileSync(output, 'utf8');
      } catch (error) {
        console.warn(`[skip] item 21.3 strace: cannot trace here (${(error as Error).message.split('\n')[0]})`);
        context.skip();
        return;
      }
      const lines = trace.split('\n');
      const openTemp = lines.findIndex((line) => /openat\(.*\.secret\.key\.\d+\..*O_CREAT/.test(line));
      const tempFd = lines[openTemp]?.match(/= (\d+)$/)?.[1];
      const link = lines.findIndex((line) => /link(at)?\(.*\.secret\.key\..*secret\.key"/.test(line));
      const fsyncTemp = lines.findIndex((line, i) => i > openTemp && line.includes(`fsync(${tempFd})`));
      const openDir = lines.findIndex((line, i) => i > link && line.includes(`"${dataDir}"`) && line.includes('O_RDONLY'));
      const dirFd = lines[openDir]?.match(/= (\d+)$/)?.[1];
      const fsyncDir = lines.findIndex((line, i) => i > openDir && line.includes(`fsync(${dirFd})`));
      expect(openTemp, trace).toBeGreaterThanOrEqual(0);
      expect(fsyncTemp, 'the key file is flushed').toBeGreaterThan(openTemp);
      expect(link, 'then linked to its name').toBeGreaterThan(fsyncTemp);
      expect(fsyncDir, 'then the directory is flushed').toBeGreaterThan(link);
    },
  );
});
