import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../src/testing/test-app.js';

let t: TestApp;
let root: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'dms-job-routes-'));
  mkdirSync(join(root, 'projects', 'sub'), { recursive: true });
  writeFileSync(join(root, 'projects', 'a.txt'), 'abc');
  writeFileSync(join(root, 'projects', 'sub', 'b.txt'), 'defgh');
  t = await createTestApp({ localRoots: [root] });
  await t.engine.start();
  for (const name of ['here', 'there']) {
    await t.call('POST', '/api/v2/nas', { auth: t.basic, body: { name, host: 'localhost', type: 'local' } });
  }
});
afterAll(async () => {
  await t.close();
  rmSync(root, { recursive: true, force: true });
});

/** Reads a job; with `wait`, long-polls again while it runs, since each wait ends at a status change (queued → working → …). */
async function follow(path: string, auth = t.basic) {
  for (;;) {
    const response = await t.call('GET', path, { auth });
    const body = (await response.json()) as Record<string, unknown>;
    if (response.status !== 202 || !path.includes('wait=')) return { status: response.status, body };
  }
}

describe('share test jobs', () => {
  it('queues a test of an unsaved share (202) and follows it to completion with wait (200)', async () => {
    const started = await t.call('PUT', '/api/v2/nas/here/nas_shares/-/test', { auth: t.basic, body: { name: 'p', path: 'projects' } });
    expect(started.status).toBe(202);
    const job = (await started.json()) as { job_id: string; status: string; progress: number; total: number };
    expect(job).toMatchObject({ status: 'queued', progress: 0, total: 2 });
    const done = await follow(`/api/v2/nas/here/nas_shares/-/test?job_id=${job.job_id}&wait=10`);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ job_id: job.job_id, status: 'completed', progress: 2, total: 2 });
    expect(done.body['steps']).toHaveLength(2);
  });

  it('reports a failed test with a plain message', async () => {
    const started = await t.call('PUT', '/api/v2/nas/here/nas_shares/-/test', { auth: t.basic, body: { name: 'p', path: 'no/such/dir' } });
    const { job_id: id } = (await started.json()) as { job_id: string };
    const done = await follow(`/api/v2/nas/here/nas_shares/-/test?job_id=${id}&wait=10`);
    expect(done).toMatchObject({ status: 200, body: { status: 'failed' } });
    expect(done.body['message']).toMatch(/no\/such\/dir.*not found/);
    // the skipped list step is not progress
    expect(done.body).toMatchObject({ progress: 1, total: 2 });
  });

  it('says in plain words what a field wants', async () => {
    const invalid = await t.call('PUT', '/api/v2/nas/here/nas_shares/-/test', { auth: t.basic, body: { name: 'p', path: 'x', options: 'ro, vers=3' } });
    expect(invalid.status).toBe(422);
    expect(((await invalid.json()) as { messages: string[] }).messages).toEqual(['options must be comma-separated key or key=value options']);
  });

  it('validates the body like a create (422), needs job_id (400), hides jobs of other NAS (404)', async () => {
    const invalid = await t.call('PUT', '/api/v2/nas/here/nas_shares/-/test', { auth: t.basic, body: { name: '' } });
    expect(invalid.status).toBe(422);
    expect(((await invalid.json()) as { details: Record<string, unknown> }).details).toHaveProperty('path');
    expect((await follow('/api/v2/nas/here/nas_shares/-/test')).status).toBe(400);
    expect((await follow('/api/v2/nas/here/nas_shares/-/test?job_id=x&wait=31')).status).toBe(400);
    expect((await follow('/api/v2/nas/here/nas_shares/-/test?job_id=unknown')).status).toBe(404);
    const started = await t.call('PUT', '/api/v2/nas/here/nas_shares/-/test', { auth: t.basic, body: { name: 'p', path: 'projects' } });
    const { job_id: id } = (await started.json()) as { job_id: string };
    const elsewhere = await follow(`/api/v2/nas/there/nas_shares/-/test?job_id=${id}`);
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body['details']).toEqual({ job_id: [{ error: 'not_found', value: id }] });
  });

  it('needs the nas_shares / test scope', async () => {
    const show = await t.bearer('nas_shares/show');
    const denied = await t.call('PUT', '/api/v2/nas/here/nas_shares/-/test', { auth: show, body: { name: 'p', path: 'projects' } });
    expect(denied.status).toBe(403);
    expect(((await denied.json()) as { messages: string[] }).messages.join()).toContain('nas_shares / test');
    const allowed = await t.call('PUT', '/api/v2/nas/here/nas_shares/-/test', {
      auth: await t.bearer('nas_shares/test'),
      body: { name: 'p', path: 'projects' },
    });
    expect(allowed.status).toBe(202);
  });

  it('re-tests and scans a saved share; a completed scan stores exact counts on the share', async () => {
    const created = await t.call('POST', '/api/v2/nas/here/nas_shares', { auth: t.basic, body: { name: 'saved', path: 'projects' } });
    const share = (await created.json()) as { id: number };
    const retest = (await (await t.call('PUT', `/api/v2/nas_shares/${share.id}/test`, { auth: t.basic })).json()) as { job_id: string };
    expect((await follow(`/api/v2/nas_shares/${share.id}/test?job_id=${retest.job_id}&wait=10`)).body).toMatchObject({ status: 'completed' });
    expect((await follow(`/api/v2/nas/here/nas_shares/-/test?job_id=${retest.job_id}`)).status).toBe(200);

    const scanKey = await t.bearer('nas_shares/scan');
    expect((await t.call('PUT', `/api/v2/nas_shares/${share.id}/scan`, { auth: await t.bearer('nas_shares/test') })).status).toBe(403);
    const scan = await t.call('PUT', `/api/v2/nas_shares/${share.id}/scan`, { auth: scanKey });
    expect(scan.status).toBe(202);
    const { job_id: id } = (await scan.json()) as { job_id: string };
    const done = await follow(`/api/v2/nas_shares/${share.id}/scan?job_id=${id}&wait=10`, scanKey);
    expect(done).toMatchObject({ status: 200, body: { status: 'completed', file_count: 2, file_size_sum: 8 } });
    const shown = (await (await t.call('GET', `/api/v2/nas_shares/${share.id}`, { auth: t.basic })).json()) as Record<string, unknown>;
    expect(shown).toMatchObject({ file_count: 2, file_size_sum: 8 });
    expect((await follow(`/api/v2/nas_shares/${share.id}/test?job_id=${id}`)).status).toBe(404);
  });
});
