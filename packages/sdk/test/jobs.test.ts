import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DmsJobFailedError, type ActiveJobStatus, type Nas } from '../src/index.js';
import { useDms } from './support/fixture.js';

const t = useDms();
let local: Nas;

beforeAll(async () => {
  local = await t.dms.nas.create({ name: 'nas-jobs', host: 'localhost', type: 'local' });
  const dir = join(t.server.localRoot, 'projects');
  mkdirSync(join(dir, 'sub'), { recursive: true });
  writeFileSync(join(dir, 'a.txt'), 'hello');
  writeFileSync(join(dir, 'sub', 'b.txt'), 'world!!');
});

describe('share tests and scans', () => {
  it('tests an unsaved local share and waits for it, reporting progress', async () => {
    const job = await t.dms.nasShares.test(local.id, { name: 'projects', path: 'projects' });
    expect(job.status).toMatchObject({ job_id: job.id, status: 'queued', progress: 0 });
    const seen: ActiveJobStatus[] = [];
    const finished = await job.wait({ onProgress: (status) => seen.push(status) });
    expect(finished.status).toBe('completed');
    expect(finished.progress).toBe(finished.total);
    expect(finished.steps?.every((step) => step.outcome !== 'failed')).toBe(true);
    expect(seen[0]?.status).toBe('queued');
    expect(seen.at(-1)).toEqual(finished);
    expect(job.status).toEqual(finished);
    // Each call saw a different answer: a long poll that timed out unchanged is not reported.
    seen.slice(1).forEach((status, i) => expect(status).not.toEqual(seen[i]));
    // Followed through GET /jobs/{job_id}, shown as active_job_status (not the job resource's other fields).
    expect(t.responses.checked).toContain('GET /jobs/{job_id} 200');
    expect(finished).not.toHaveProperty('kind');
    // A handle on the same job, by id, from anywhere.
    const followed = await t.dms.nasShares.followTest('nas-jobs', job.id);
    expect(followed.status).toEqual(finished);
    expect(await followed.refresh()).toEqual(finished);
  });

  it('rejects with DmsJobFailedError carrying the message and steps of a failed job', async () => {
    const job = await t.dms.nasShares.test('nas-jobs', { name: 'missing', path: 'does/not/exist' });
    const failure = await job.wait().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(DmsJobFailedError);
    expect(failure).toMatchObject({ name: 'DmsJobFailedError', jobId: job.id, job: { status: 'failed' } });
    const { job: failed, steps, message } = failure as DmsJobFailedError;
    expect(failed.message).toEqual(expect.any(String));
    expect(message).toContain(failed.message);
    expect(steps.some((step) => step.outcome === 'failed')).toBe(true);
    expect(job.status.status).toBe('failed');
  });

  it('re-tests and scans a saved share; the scan stores file_count and file_size_sum', async () => {
    const share = await t.dms.nasShares.create(local.id, { name: 'projects', path: 'projects' });
    const retest = await t.dms.nasShares.retest(share.id);
    expect((await retest.wait()).status).toBe('completed');
    expect((await t.dms.nasShares.followRetest(share.id, retest.id)).status.status).toBe('completed');

    const scan = await t.dms.nasShares.scan('projects');
    const scanned = await scan.wait({ timeoutMs: 20_000 });
    expect(scanned).toMatchObject({ status: 'completed', file_count: 2, file_size_sum: 12 });
    expect(await t.dms.nasShares.get(share.id)).toMatchObject({ file_count: 2, file_size_sum: 12 });
    const followed = await t.dms.nasShares.followScan(share.id, scan.id);
    expect(followed.status).toMatchObject({ status: 'completed', file_count: 2 });
  });
});

describe('a job that does not finish soon', () => {
  // An NFS "server" that accepts the connection and never answers: the test stays working
  // until the driver's timeout, long enough to stop waiting for it.
  let silent: Server;
  const sockets: Socket[] = [];
  let nfs: Nas;
  beforeAll(async () => {
    silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    nfs = await t.dms.nas.create({ name: 'nas-silent', host: '127.0.0.1', type: 'nfs_v4' });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });
  const start = () => t.dms.nasShares.test(nfs.id, { name: 'export', path: '/export', options: `port=${(silent.address() as AddressInfo).port}` });

  it('aborts wait() with the signal, during the long poll', async () => {
    const job = await start();
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 300);
    await expect(job.wait({ signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(['queued', 'working']).toContain((await job.refresh()).status);
  });

  it('reports progress while the status stays working (GET /jobs/{job_id} wakes on every change)', async () => {
    // The silent server lets resolve_host and connect succeed; negotiate_protocol then hangs
    // until the driver's timeout, so `working` with progress 2 of 4 stays until we stop.
    const job = await start();
    const controller = new AbortController();
    const seen: ActiveJobStatus[] = [];
    const waited = job.wait({
      signal: controller.signal,
      onProgress: (status) => {
        seen.push(status);
        if (status.status === 'working' && status.progress === 2) controller.abort();
      },
    });
    await expect(waited).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen.at(-1)).toMatchObject({ status: 'working', progress: 2, total: 4 });
    expect(seen.at(-1)?.steps?.map((step) => step.name)).toEqual(['resolve_host', 'connect']);
    expect(job.status).toEqual(seen.at(-1));
  });

  it('falls back to the path the job was started on for a key without jobs / show', async () => {
    const { key } = await t.admin.apiKeys.create({ name: 'tester only', api_key_scopes: [{ controller: 'nas_shares', action: 'test' }] });
    const tester = t.client({ auth: { apiKey: key } });
    const job = await tester.nasShares.test('nas-jobs', { name: 'projects', path: 'projects' });
    const before = t.responses.checked.length;
    expect(await job.wait()).toMatchObject({ job_id: job.id, status: 'completed' });
    const answers = t.responses.checked.slice(before);
    // One refusal, then the share test's own long poll for the rest of the handle's life.
    expect(answers[0]).toBe('GET /jobs/{job_id} 403');
    expect(answers.length).toBeGreaterThan(1);
    expect(answers.slice(1).every((answer) => answer.startsWith('GET /nas/{nas_id}/nas_shares/-/test 20'))).toBe(true);
    await expect(tester.jobs.get(job.id)).rejects.toMatchObject({ name: 'DmsApiError', status: 403, kind: 'forbidden' });
  });

  it('gives up after timeoutMs with a TimeoutError; the job goes on', async () => {
    const job = await start();
    const seen: string[] = [];
    await expect(job.wait({ timeoutMs: 400, onProgress: (status) => seen.push(status.status) })).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(seen[0]).toBe('queued');
  });

  it('aborts any call with its signal', async () => {
    await expect(t.dms.nas.list({ signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
  });
});
