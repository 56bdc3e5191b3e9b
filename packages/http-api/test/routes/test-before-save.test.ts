import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../src/testing/test-app.js';
import { addNas, readJson, unique, type Nas, type NasShare } from '../../src/testing/fixtures.js';

/**
 * A test of an unsaved share, finished minutes before the same principal saves exactly what it
 * tested, is the new share's latest test (docs/decisions/153-test-before-save.md).
 */
let t: TestApp;
let local: Nas;
let key: string;
/** The app's clock runs `offsetMs` ahead of the wall clock: a test moves it past the window. */
let offsetMs = 0;
const base = mkdtempSync(join(tmpdir(), 'dms-test-before-save-'));
const root = join(base, 'shares');

beforeAll(async () => {
  mkdirSync(join(root, 'projects'), { recursive: true });
  t = await createTestApp({ localRoots: [root], clock: () => new Date(Date.now() + offsetMs) });
  await t.engine.start();
  local = await addNas(t);
  key = await t.bearer('nas/show', 'nas_shares/show', 'nas_shares/test', 'nas_shares/create', 'jobs/index', 'jobs/show');
});
afterAll(async () => {
  await t.close();
  rmSync(base, { recursive: true, force: true });
});

interface FinishedJob {
  job_id: string;
  status: string;
  finished_at: string;
  nas_share_id: number | null;
}

/** Tests the body unsaved as `auth` and follows the job (long-polls) until it finished. */
async function testedUnsaved(auth: string, body: Record<string, unknown>): Promise<FinishedJob> {
  const started = await t.call('PUT', `/api/v2/nas/${local.id}/nas_shares/-/test`, { auth, body });
  expect(started.status).toBe(202);
  const { job_id: jobId } = await readJson<{ job_id: string }>(started);
  for (;;) {
    const res = await t.call('GET', `/api/v2/nas/${local.id}/nas_shares/-/test?job_id=${jobId}&wait=10`, { auth });
    if (res.status === 200) break;
    expect(res.status).toBe(202);
  }
  return readJson<FinishedJob>(await t.call('GET', `/api/v2/jobs/${jobId}`, { auth: t.basic }));
}

async function saved(auth: string, body: Record<string, unknown>): Promise<NasShare> {
  const res = await t.call('POST', `/api/v2/nas/${local.id}/nas_shares`, { auth, body });
  expect(res.status).toBe(201);
  return readJson<NasShare>(res);
}

async function jobsOf(share: NasShare): Promise<string[]> {
  const list = await readJson<{ jobs: FinishedJob[] }>(await t.call('GET', `/api/v2/jobs?nas_share_id=${share.id}`, { auth: t.basic }));
  return list.jobs.map((job) => job.job_id);
}

const untested = { health: 'unknown', last_tested_at: null, last_test_status: null };

describe('test before save', () => {
  it('issue 45: a passed test of exactly the saved location becomes the share’s latest test, listed against the share', async () => {
    const body = { name: unique('projects'), path: 'projects', username: 'ann', password: 'secret-1' };
    const job = await testedUnsaved(t.basic, body);
    expect(job).toMatchObject({ status: 'completed', nas_share_id: null });
    const share = await saved(t.basic, body);
    expect(share).toMatchObject({ health: 'ok', last_tested_at: job.finished_at, last_test_status: 'completed' });
    expect(await jobsOf(share)).toEqual([job.job_id]);
    expect(await readJson<FinishedJob>(await t.call('GET', `/api/v2/jobs/${job.job_id}`, { auth: t.basic }))).toMatchObject({ nas_share_id: share.id });
    // Taken once: a second share saved from the same test starts untested.
    expect(await saved(t.basic, { ...body, name: unique('again') })).toMatchObject(untested);
  });

  it('issue 45: a failed test is taken as well, the share then unreachable; the newest test wins', async () => {
    const body = { name: unique('later'), path: 'made/later' };
    await testedUnsaved(t.basic, body);
    const newest = await testedUnsaved(t.basic, body);
    expect(newest.status).toBe('failed');
    const share = await saved(t.basic, body);
    expect(share).toMatchObject({ health: 'unreachable', last_tested_at: newest.finished_at, last_test_status: 'failed' });
    expect(await jobsOf(share)).toEqual([newest.job_id]);
  });

  it.each([
    ['another password', { password: 'secret-2' }],
    ['another username', { username: 'bob' }],
    ['another path', { path: 'projects/' }],
    ['options added', { options: 'vers=3' }],
  ])('issue 45: a test of another location or credentials (%s) is not taken', async (_what, change) => {
    const body = { name: unique('projects'), path: 'projects', username: 'ann', password: 'secret-1' };
    const job = await testedUnsaved(t.basic, body);
    const share = await saved(t.basic, { ...body, ...change });
    expect(share).toMatchObject(untested);
    expect(await jobsOf(share)).toEqual([]);
    expect(await readJson<FinishedJob>(await t.call('GET', `/api/v2/jobs/${job.job_id}`, { auth: t.basic }))).toMatchObject({ nas_share_id: null });
  });

  it('issue 45: a test by another principal is not taken; the principal that tested takes it', async () => {
    const body = { name: unique('projects'), path: 'projects' };
    const job = await testedUnsaved(key, body);
    expect(await saved(t.basic, body)).toMatchObject(untested);
    const share = await saved(key, { ...body, name: unique('projects') });
    expect(share).toMatchObject({ health: 'ok', last_test_status: 'completed', last_tested_at: job.finished_at });
    expect(await jobsOf(share)).toEqual([job.job_id]);
  });

  it('issue 45: a test that finished longer than 10 minutes before the save is not taken', async () => {
    const body = { name: unique('projects'), path: 'projects' };
    await testedUnsaved(t.basic, body);
    offsetMs = 10 * 60 * 1000 + 1_000;
    try {
      expect(await saved(t.basic, body)).toMatchObject(untested);
    } finally {
      offsetMs = 0;
    }
  });
});
