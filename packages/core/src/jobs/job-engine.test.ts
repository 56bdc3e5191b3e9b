import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStorage } from '../adapters/sqlite/sqlite-storage.js';
import { createLocalDriver } from '../adapters/local/local-driver.js';
import { createAesGcmSecretBox } from '../adapters/aes-gcm/aes-gcm-secret-box.js';
import { MemoryEventBus } from '../adapters/memory/memory-event-bus.js';
import type { DmsEvent } from '../domain/events.js';
import type { Storage } from '../ports/storage.js';
import type { JobRecord } from '../ports/job-store.js';
import { createHostPolicy } from '../security/host-policy.js';
import { isJobFinished } from '../domain/job.js';
import { JobEngine, type JobEngineOptions } from './job-engine.js';
import type { JobFailure } from './job-messages.js';

let dir: string;
let root: string;
let file: string;
let storage: Storage;
let events: DmsEvent[];
const secrets = createAesGcmSecretBox(randomBytes(32));
const engines: JobEngine[] = [];

function engine(options: Pick<JobEngineOptions, 'concurrency' | 'onJobFailed' | 'heartbeatMs' | 'onError'> = {}, bus = new MemoryEventBus()): JobEngine {
  bus.subscribe((event) => events.push(event));
  const created = new JobEngine({
    storage,
    secrets,
    drivers: { forType: () => createLocalDriver({ roots: [root] }) },
    hostPolicy: async () => createHostPolicy([]),
    events: bus,
    clock: () => new Date(),
    newId: () => `id-${Math.random().toString(36).slice(2)}`,
    pollMs: 20,
    ...options,
  });
  engines.push(created);
  return created;
}

async function until(id: string, done: (job: JobRecord) => boolean): Promise<JobRecord> {
  for (let i = 0; i < 400; i++) {
    const job = await storage.jobs.get(id);
    if (job && done(job)) return job;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`job ${id} did not get there`);
}
const finished = (job: JobRecord) => isJobFinished(job);

const unsaved = (path: string, password: string | null = null) => ({
  label: 'probe',
  location: { type: 'local' as const, host: 'localhost', path, options: null, username: null, password },
});

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dms-jobs-'));
  root = join(dir, 'shares');
  mkdirSync(join(root, 'projects', 'a'), { recursive: true });
  writeFileSync(join(root, 'projects', 'one.txt'), 'hello');
  writeFileSync(join(root, 'projects', 'a', 'two.bin'), Buffer.alloc(1000));
  file = join(dir, 'dms.sqlite');
  storage = openSqliteStorage({ file });
  await storage.migrate();
  events = [];
});

afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.stop()));
  await storage.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('job engine', () => {
  it('a busy worker runs the queue through, and a failure in telling of one job keeps none of the next from running', async () => {
    const errors: unknown[] = [];
    // An event bus whose publish throws: announcing a finished job fails, after its finish claimed the next.
    const busDown = new MemoryEventBus();
    busDown.publish = () => {
      throw new Error('bus down');
    };
    const failing = engine({ concurrency: 1, onError: (error) => errors.push(error) }, busDown);
    const jobs = [];
    for (let i = 0; i < 5; i++) jobs.push(await failing.enqueue('share_test', unsaved('projects'), { nasId: 1, shareId: null, total: 2 }));
    await failing.start();
    for (const job of jobs) expect((await until(job.id, finished)).status).toBe('completed');
    expect(errors.length).toBeGreaterThanOrEqual(5);
    expect(errors.every((error) => error instanceof Error && error.message === 'bus down')).toBe(true);
  });

  it('runs a share test through the real local driver, step by step, and reports the event', async () => {
    const jobs = engine();
    await jobs.start();
    const job = await jobs.enqueue('share_test', unsaved('projects', 'pa55-word-xyz'), { nasId: 1, shareId: null, total: 2 });
    expect(job.status).toBe('queued');
    const done = await until(job.id, finished);
    expect(done).toMatchObject({
      status: 'completed',
      progress: 2,
      total: 2,
      message: `opened 'projects', 2 entries listed (host path: ${join(root, 'projects')})`,
      payload_enc: null,
    });
    expect(done.steps.map((s) => [s.name, s.outcome])).toEqual([
      ['open_path', 'ok'],
      ['list', 'ok'],
    ]);
    expect(events.map((e) => e.name)).toEqual(['share_test_completed']);
    for (const part of [file, `${file}-wal`]) {
      expect(readFileSync(part).includes('pa55-word-xyz'), part).toBe(false);
    }
  });

  it('fails a test with a plain message when the path is missing, and tells onJobFailed with the job id', async () => {
    const failures: JobFailure[] = [];
    const jobs = engine({ onJobFailed: (failure) => failures.push(failure) });
    await jobs.start();
    const job = await jobs.enqueue('share_test', unsaved('nowhere/deep'), { nasId: 1, shareId: null, total: 2 });
    const done = await until(job.id, finished);
    expect(done.status).toBe('failed');
    expect(done.message).toMatch(/nowhere\/deep.*not found/);
    expect(failures).toEqual([{ jobId: job.id, kind: 'share_test', nasId: 1, shareId: null, shareName: 'probe', message: done.message }]);
    expect(done.steps[0]).toMatchObject({ name: 'open_path', outcome: 'failed' });
    expect(events.map((e) => [e.name, e.severity])).toEqual([['share_test_failed', 4]]);
  });

  it('scans a saved share and stores exact counts on it', async () => {
    const nas = await storage.nas.create({ name: 'n', host: 'localhost', type: 'local', comment: null, price: null });
    const share = await storage.shares.create({ nas_id: nas.id, name: 's', path: 'projects', options: null, username: null, password_enc: null });
    const jobs = engine();
    await jobs.start();
    const job = await jobs.enqueue('share_scan', { shareId: share.id }, { nasId: nas.id, shareId: share.id, total: 0 });
    const done = await until(job.id, finished);
    expect(done).toMatchObject({ status: 'completed', message: 'counted 2 files, 1.0 kB', result: { file_count: 2, file_size_sum: 1005 } });
    expect(await storage.shares.get(share.id)).toMatchObject({ file_count: 2, file_size_sum: 1005 });
    expect(events.map((e) => e.name)).toEqual(['share_scan_completed']);
  });

  it('keeps a queued job across a restart and runs it on the next start', async () => {
    const first = engine();
    const job = await first.enqueue('share_test', unsaved('projects'), { nasId: 1, shareId: null, total: 2 });
    await storage.close();
    storage = openSqliteStorage({ file });
    await storage.migrate();
    expect((await storage.jobs.get(job.id))?.status).toBe('queued');
    await engine().start();
    expect((await until(job.id, finished)).status).toBe('completed');
  });

  it('fails a job a crash left working with "interrupted" and raises job_interrupted', async () => {
    const job = await engine().enqueue('share_test', unsaved('projects'), { nasId: 1, shareId: null, total: 2 });
    expect((await storage.jobs.claim('crashed-worker', new Date().toISOString()))?.id).toBe(job.id);
    const failures: JobFailure[] = [];
    await engine({ onJobFailed: (failure) => failures.push(failure) }).start();
    expect(await storage.jobs.get(job.id)).toMatchObject({ status: 'failed', message: 'interrupted', payload_enc: null });
    expect(failures).toMatchObject([{ jobId: job.id, kind: 'share_test', message: 'interrupted' }]);
    expect(events.map((e) => [e.name, e.severity])).toEqual([['job_interrupted', 3]]);
  });

  it('replicas (no start-up recovery) fail a job whose heartbeat stopped after 3 heartbeats, exactly once between them', async () => {
    const job = await engine().enqueue('share_test', unsaved('projects'), { nasId: 1, shareId: null, total: 2 });
    const claimedAt = Date.now();
    expect((await storage.jobs.claim('killed-replica', new Date(claimedAt).toISOString()))?.id).toBe(job.id);
    const failures: JobFailure[] = [];
    const replicas = [engine({ heartbeatMs: 40, onJobFailed: (f) => failures.push(f) }), engine({ heartbeatMs: 40, onJobFailed: (f) => failures.push(f) })];
    for (const replica of replicas) await replica.start({ recoverEveryWorking: false });
    expect((await storage.jobs.get(job.id))?.status).toBe('working');
    const failed = await until(job.id, finished);
    expect(failed).toMatchObject({ status: 'failed', message: 'interrupted' });
    expect(Date.parse(failed.finished_at!) - claimedAt).toBeGreaterThanOrEqual(120);
    await expect.poll(() => events.filter((e) => e.name === 'job_interrupted').length).toBe(1);
    expect(failures.map((f) => f.jobId)).toEqual([job.id]);
  });

  it('runs many jobs with several workers, each exactly once', async () => {
    const jobs = engine({ concurrency: 4 });
    const ids = await Promise.all(
      Array.from({ length: 20 }, () => jobs.enqueue('share_test', unsaved('projects'), { nasId: 1, shareId: null, total: 2 }).then((j) => j.id)),
    );
    await jobs.start();
    for (const id of ids) expect((await until(id, finished)).status).toBe('completed');
    expect(events.filter((e) => e.name === 'share_test_completed')).toHaveLength(20);
  });
});
