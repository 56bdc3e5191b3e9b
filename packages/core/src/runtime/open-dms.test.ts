import { createSocket } from 'node:dgram';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { systemPrincipal } from '../scopes/principal.js';
import { openDms, NoDatabaseError, type Dms } from './open-dms.js';
import { DataDirInUseError } from './data-dir-in-use-error.js';
import type { DmsEvent } from '../domain/events.js';
import type { DmsLog } from './log.js';

const recordingLog = () => {
  const lines: Array<{ level: string; message: string }> = [];
  const log: DmsLog = {
    info: (_fields, message) => void lines.push({ level: 'info', message }),
    warn: (_fields, message) => void lines.push({ level: 'warn', message }),
    error: (_fields, message) => void lines.push({ level: 'error', message }),
  };
  return { log, lines };
};

describe('openDms', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const newDataDir = () => {
    const root = mkdtempSync(join(tmpdir(), 'dms-open-'));
    cleanups.push(() => rmSync(root, { recursive: true, force: true }));
    return join(root, 'data');
  };
  const open = async (options: Parameters<typeof openDms>[0]): Promise<Dms> => {
    const dms = await openDms(options);
    cleanups.push(() => dms.close());
    return dms;
  };

  it('opens a new data dir as a service: private dir, first admin, lock; close is idempotent and releases it', async () => {
    const dataDir = newDataDir();
    const dms = await open({ dataDir, role: 'service' });
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(dms.firstAdmin.created).toBe(true);
    expect(dms.firstAdmin.generatedPassword).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(existsSync(join(dataDir, 'shares'))).toBe(true);
    await expect(openDms({ dataDir, role: 'service' })).rejects.toBeInstanceOf(DataDirInUseError);
    // A short command works beside the running service.
    const command = await openDms({ dataDir, role: 'command' });
    expect((await command.core.users.list(systemPrincipal, {})).count).toBe(1);
    await command.close();
    await dms.close();
    await dms.close();
    const again = await open({ dataDir, role: 'service' });
    expect(again.firstAdmin.created).toBe(false);
  });

  it('a command refuses a data dir without a database and creates nothing', async () => {
    const dataDir = newDataDir();
    await expect(openDms({ dataDir, role: 'command' })).rejects.toBeInstanceOf(NoDatabaseError);
    expect(existsSync(dataDir)).toBe(false);
    const created = await open({ dataDir, role: 'command', createDatabase: true });
    expect(created.firstAdmin.created).toBe(false);
    expect(readdirSync(dataDir).sort()).toEqual(['dms.sqlite', 'dms.sqlite-shm', 'dms.sqlite-wal', 'secret.key']);
  });

  it('fails the jobs a crash left working when a service starts, and announces start and stop', async () => {
    const dataDir = newDataDir();
    const first = await openDms({ dataDir, role: 'command', createDatabase: true });
    const nas = await first.core.nas.create(systemPrincipal, { name: 'n', host: 'h', type: 'local' });
    const queued = await first.core.jobs.testUnsaved(systemPrincipal, String(nas.id), { name: 's', path: 'x' });
    await first.close();
    // A job a crashed service left working (the claim of a worker that never finished).
    const crashed = await openDms({ dataDir, role: 'command' });
    const { openSqliteStorage } = await import('../adapters/sqlite/index.js');
    const raw = openSqliteStorage({ file: join(dataDir, 'dms.sqlite') });
    expect((await raw.jobs.claim('crashed-worker', new Date().toISOString()))?.id).toBe(queued.job_id);
    await raw.close();
    await crashed.close();

    const events: DmsEvent[] = [];
    const dms = await open({ dataDir, role: 'service', trapSender: { send: async () => {}, close: () => {} } });
    dms.events.subscribe((event) => events.push(event));
    const job = await dms.core.jobs.status(systemPrincipal, { jobId: queued.job_id, nasRef: String(nas.id) });
    expect(job).toMatchObject({ status: 'failed', message: 'interrupted' });
    await dms.close();
    expect(events.map((event) => event.name)).toContain('service_stopping');
  });

  it('an SNMP agent port in use is one clear log line and a failed agent state, not a failed start', async () => {
    const busy = createSocket('udp4');
    await new Promise<void>((resolve) => busy.bind(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => busy.close(() => resolve())));
    const port = busy.address().port;
    const { log, lines } = recordingLog();
    const dms = await open({ dataDir: newDataDir(), role: 'service', log, snmp: { agent: { host: '127.0.0.1', port } } });
    expect(dms.snmpAgent()).toEqual({ state: 'failed', address: '127.0.0.1', port, reason: 'the port is in use by another program' });
    const errors = lines.filter((line) => line.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toContain(`UDP 127.0.0.1:${port}`);
    expect(errors[0]!.message).toContain('agent_port of the SNMP server configuration');
  });
});
