import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemPrincipal, type Job } from '@dms/core';
import { createTestApp, type TestApp } from '../../src/testing/test-app.js';
import {
  addUser,
  expectModelError,
  principalOf,
  readJson,
  seedResourceWorld,
  unique,
  type NasShare,
  type ResourceWorld,
  type User,
} from '../../src/testing/fixtures.js';
import { unreachableNasHost } from '../../src/testing/operation-requests.js';

/**
 * GET /jobs and GET /jobs/{job_id} (issue 22, docs/api.md#job-history) on jobs started over REST. The
 * engine is not started: the test plays the worker through the storage port (claim, progress,
 * finish), as a replica's worker would, so every status and every change happens when the test
 * says, not when a share answers.
 */

interface JobCollection {
  count: number;
  jobs: Job[];
}

const api = (path: string) => `/api/v2${path}`;
const basicOf = (user: Pick<User, 'username'>, password = 'user-password-1') => `Basic ${Buffer.from(`${user.username}:${password}`).toString('base64')}`;
const worker = 'test-worker';

describe('GET /jobs and GET /jobs/{job_id}', () => {
  let t: TestApp;
  /** Added to the real time of the core's clock: each job is created a minute after the one before. */
  let offsetMs = 0;
  let world: ResourceWorld;
  let other: NasShare;
  let alice: User;
  let opsKeyName: string;
  let opsKey: string;
  /** The jobs, oldest first: admin tests, admin scans `other`, alice tests, the key scans, the key tests an unsaved share. */
  let jobs: Job[];
  let failedId: string;
  let completedId: string;
  /** The answers of the PUTs that started the jobs, oldest first. */
  const started: Response[] = [];

  async function list(query: string, auth = t.basic): Promise<JobCollection> {
    const res = await t.call('GET', api(`/jobs${query}`), { auth });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    return JSON.parse(text) as JobCollection;
  }
  const ids = (collection: JobCollection) => collection.jobs.map((job) => job.job_id);
  /** The ids of `jobs` at these positions (0 is the oldest). */
  const idsAt = (...positions: number[]) => positions.map((position) => jobs[position]!.job_id);

  async function start(path: string, auth: string, body?: unknown): Promise<string> {
    const res = await t.call('PUT', api(path), { auth, ...(body === undefined ? {} : { body }) });
    expect(res.status, await res.clone().text()).toBe(202);
    started.push(res.clone());
    offsetMs += 60_000;
    return (await readJson<{ job_id: string }>(res)).job_id;
  }

  /** Claims the oldest queued job as the test's worker and finishes it with `status`. */
  async function finishNext(status: 'completed' | 'failed'): Promise<string> {
    const now = () => new Date(Date.now() + offsetMs).toISOString();
    const claimed = await t.storage.jobs.claim(worker, now());
    if (!claimed) throw new Error('no queued job to claim');
    const message = status === 'failed' ? 'connect: host unreachable' : null;
    await t.storage.jobs.finish(claimed.id, worker, { status, message, progress: 1, total: 1, steps: [] }, now());
    return claimed.id;
  }

  beforeAll(async () => {
    t = await createTestApp({ clock: () => new Date(Date.now() + offsetMs) });
    world = await seedResourceWorld(t, { nas: { type: 'nfs_v4', host: unreachableNasHost }, share: { path: '/export/data' } });
    other = await t.core.shares.create(systemPrincipal, String(world.nas.id), { name: unique('other'), path: '/export/other' });
    alice = await addUser(t);
    opsKeyName = unique('ops-key');
    const scopes = ['nas_shares/test', 'nas_shares/scan', 'jobs/index', 'jobs/show'].map((scope) => {
      const [controller = '', action = ''] = scope.split('/');
      return { controller, action };
    });
    opsKey = `Bearer ${(await t.core.apiKeys.create(systemPrincipal, { name: opsKeyName, api_key_scopes: scopes })).key}`;

    const ids = [
      await start(`/nas_shares/${world.share.id}/test`, t.basic),
      await start(`/nas_shares/${other.id}/scan`, t.basic),
      await start(`/nas_shares/${world.share.id}/test`, basicOf(alice)),
      await start(`/nas_shares/${world.share.id}/scan`, opsKey),
      await start(`/nas/${world.nas.id}/nas_shares/-/test`, opsKey, { name: unique('probe'), path: '/export/probe' }),
    ];
    failedId = await finishNext('failed');
    completedId = await finishNext('completed');
    const all = await list('?sort_by=created_at');
    jobs = ids.map((id) => all.jobs.find((job) => job.job_id === id)!);
  });
  afterAll(() => t.close());

  it('lists a job started over REST with who started it: the user’s name, or the key’s', () => {
    expect(jobs.map((job) => job.requester)).toEqual(['admin', 'admin', alice.username, opsKeyName, opsKeyName]);
    expect(jobs[0]).toMatchObject({ kind: 'share_test', nas_share_id: world.share.id, nas_id: world.nas.id });
    expect(jobs[1]).toMatchObject({ kind: 'share_scan', nas_share_id: other.id, nas_id: world.nas.id });
    // A test of an unsaved share has a NAS and no share.
    expect(jobs[4]).toMatchObject({ kind: 'share_test', nas_share_id: null, nas_id: world.nas.id, status: 'queued', started_at: null, finished_at: null });
    for (const job of jobs) expect(job.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(jobs.find((job) => job.job_id === failedId)).toMatchObject({ status: 'failed', message: 'connect: host unreachable' });
    expect(jobs.find((job) => job.job_id === completedId)?.finished_at).toEqual(expect.any(String));
  });

  it('answers every 202 that starts a job with Location: /api/v2/jobs/{job_id}, which shows that job', async () => {
    expect(started).toHaveLength(jobs.length);
    for (const [index, res] of started.entries()) {
      const { job_id: id } = await readJson<{ job_id: string }>(res);
      expect(res.headers.get('location')).toBe(`/api/v2/jobs/${id}`);
      const shown = await t.call('GET', res.headers.get('location')!, { auth: t.basic });
      expect((await readJson<Job>(shown)).job_id).toBe(jobs[index]!.job_id);
    }
  });

  it('lists newest first by default; sort_by reverses it', async () => {
    const newestFirst = await list('');
    expect(newestFirst.count).toBe(5);
    expect(ids(newestFirst)).toEqual(idsAt(4, 3, 2, 1, 0));
    expect(ids(await list('?sort_by=created_at'))).toEqual(idsAt(0, 1, 2, 3, 4));
    expect(ids(await list('?sort_by=requester|created_at:desc'))).toEqual(
      [...jobs].sort((a, b) => a.requester.localeCompare(b.requester) || b.created_at.localeCompare(a.created_at)).map((job) => job.job_id),
    );
  });

  it('pages with limit/offset and page/per_page, count before paging', async () => {
    const first = await list('?limit=2');
    expect({ count: first.count, ids: ids(first) }).toEqual({ count: 5, ids: idsAt(4, 3) });
    expect(ids(await list('?limit=2&offset=2'))).toEqual(idsAt(2, 1));
    const last = await list('?page=3&per_page=2');
    expect({ count: last.count, ids: ids(last) }).toEqual({ count: 5, ids: idsAt(0) });
    await expectModelError(await t.call('GET', api('/jobs?limit=2&page=1'), { auth: t.basic }), 400);
  });

  it('filters on status, kind, nas_share_id, requester and created_at (with >=)', async () => {
    expect(ids(await list('?status=failed'))).toEqual([failedId]);
    expect(ids(await list('?status=completed'))).toEqual([completedId]);
    expect((await list('?status=queued')).count).toBe(3);
    expect(ids(await list('?kind=share_scan'))).toEqual(idsAt(3, 1));
    expect(ids(await list(`?nas_share_id=${world.share.id}`))).toEqual(idsAt(3, 2, 0));
    expect(ids(await list('?nas_share_id=null'))).toEqual(idsAt(4));
    expect(ids(await list(`?requester=${alice.username}`))).toEqual(idsAt(2));
    expect(ids(await list(`?requester=${encodeURIComponent(opsKeyName)}&kind=share_test`))).toEqual(idsAt(4));
    expect(ids(await list(`?created_at=${encodeURIComponent(`>=${jobs[3]!.created_at}`)}`))).toEqual(idsAt(4, 3));
    expect(ids(await list(`?created_at=${encodeURIComponent(`<${jobs[1]!.created_at}`)}`))).toEqual(idsAt(0));
    await expectModelError(await t.call('GET', api('/jobs?colour=red'), { auth: t.basic }), 400, 'colour');
  });

  it('is 403 for a key without jobs / index', async () => {
    const res = await t.call('GET', api('/jobs'), { auth: await t.bearer('nas_shares/show', 'jobs/show') });
    const body = await expectModelError(res, 403, 'scope', 'forbidden');
    expect(body.messages.join(' ')).toContain('jobs / index');
  });

  it('shows a key without nas_shares / show only the jobs of its own key tree; others are 404 to it', async () => {
    const own = await list('', opsKey);
    expect({ count: own.count, ids: ids(own) }).toEqual({ count: 2, ids: idsAt(4, 3) });
    await expectModelError(await t.call('GET', api(`/jobs/${jobs[0]!.job_id}`), { auth: opsKey }), 404, 'job_id', 'not_found');
    expect((await t.call('GET', api(`/jobs/${jobs[3]!.job_id}`), { auth: opsKey })).status).toBe(202);
    // A key of alice's sees what alice started, and nothing else.
    const aliceKey = await t.core.apiKeys.create(principalOf(alice), { name: unique('alice-key'), api_key_scopes: [{ controller: 'jobs', action: 'index' }] });
    expect(ids(await list('', `Bearer ${aliceKey.key}`))).toEqual(idsAt(2));
    // With nas_shares / show, a key sees every job, as it sees every share.
    expect((await list('', await t.bearer('jobs/index', 'nas_shares/show'))).count).toBe(5);
  });

  it('issue 45: GET /jobs says in Dms-Jobs-Scope whether it lists every job (all) or only the key’s own (own)', async () => {
    const scopeOf = async (auth: string) => {
      const res = await t.call('GET', api('/jobs'), { auth });
      expect(res.status, await res.clone().text()).toBe(200);
      return res.headers.get('dms-jobs-scope');
    };
    expect(await scopeOf(opsKey)).toBe('own');
    expect(await scopeOf(t.basic)).toBe('all');
    expect(await scopeOf(await t.bearer('jobs/index', 'nas_shares/show'))).toBe('all');
  });

  it('issue 48: says in Dms-Count whether count is exact, and keeps that out of the body', async () => {
    const res = await t.call('GET', api('/jobs?limit=1'), { auth: t.basic });
    expect(res.status).toBe(200);
    expect(res.headers.get('dms-count')).toBe('exact');
    expect(Object.keys(await readJson<object>(res)).sort()).toEqual(['count', 'jobs']);
  });

  it('shows one job: 200 once finished (with an ETag), 202 while queued, 404 for an unknown id', async () => {
    const finished = await t.call('GET', api(`/jobs/${failedId}`), { auth: t.basic });
    expect(finished.status).toBe(200);
    expect(await readJson<Job>(finished)).toMatchObject({ job_id: failedId, status: 'failed', requester: 'admin' });
    const etag = finished.headers.get('etag')!;
    expect((await t.call('GET', api(`/jobs/${failedId}`), { auth: t.basic, headers: { 'if-none-match': etag } })).status).toBe(304);
    const stillQueued = jobs.find((job) => job.status === 'queued')!;
    const queued = await t.call('GET', api(`/jobs/${stillQueued.job_id}`), { auth: t.basic });
    expect(queued.status).toBe(202);
    expect(await readJson<Job>(queued)).toEqual(stillQueued);
    const unknown = await expectModelError(await t.call('GET', api('/jobs/no-such-job'), { auth: t.basic }), 404, 'job_id', 'not_found');
    expect(unknown.details['job_id']).toEqual([{ error: 'not_found', value: 'no-such-job' }]);
    await expectModelError(await t.call('GET', api(`/jobs/${failedId}?wait=31`), { auth: t.basic }), 400, 'wait');
  });
});

describe('a job started from a web page', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('exposes Location to a page of an allowed origin, so a browser client can follow the job', async () => {
    await t.core.corsRules.create(systemPrincipal, { origins: ['https://app.example.com'], path: '/api/v2/*', methods: ['PUT', 'GET'] });
    const world = await seedResourceWorld(t, { nas: { type: 'nfs_v4', host: unreachableNasHost }, share: { path: '/export/data' } });
    const res = await t.call('PUT', api(`/nas_shares/${world.share.id}/test`), { auth: t.basic, headers: { origin: 'https://app.example.com' } });
    expect(res.status).toBe(202);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(res.headers.get('access-control-expose-headers')?.split(', ')).toContain('Location');
    // issue 45: a page may read whether GET /jobs listed every job or only its key's own.
    expect(res.headers.get('access-control-expose-headers')?.split(', ')).toContain('Dms-Jobs-Scope');
    // issue 48: and whether a history list's count is exact or a lower bound.
    expect(res.headers.get('access-control-expose-headers')?.split(', ')).toContain('Dms-Count');
    expect(res.headers.get('location')).toBe(`/api/v2/jobs/${(await readJson<{ job_id: string }>(res)).job_id}`);
  });
});

describe('GET /jobs/{job_id}?wait= wakes on progress, not only on status', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers a long-poll as soon as a working job reports progress (202, still working)', async () => {
    const world = await seedResourceWorld(t, { nas: { type: 'nfs_v4', host: unreachableNasHost }, share: { path: '/export/data' } });
    const res = await t.call('PUT', api(`/nas_shares/${world.share.id}/scan`), { auth: t.basic });
    const { job_id: id } = await readJson<{ job_id: string }>(res);
    const claimed = await t.storage.jobs.claim(worker, new Date().toISOString());
    expect(claimed?.id).toBe(id);
    const working = await readJson<Job>(await t.call('GET', api(`/jobs/${id}`), { auth: t.basic }));
    expect(working).toMatchObject({ status: 'working', progress: 0 });

    // A scan counts files as it walks: each report is progress, the status stays working. The
    // worker reports until the long-poll answers (its first read may come after a report, so one
    // report alone could be what it starts from), each report signalled as this process's
    // engine signals its own.
    const answer = t.call('GET', api(`/jobs/${id}?wait=30`), { auth: t.basic });
    let answered = false;
    void answer.then(() => (answered = true));
    let files = 0;
    while (!answered) {
      files += 100;
      await t.storage.jobs.progress(
        id,
        worker,
        { progress: 0, total: 0, steps: [], result: { file_count: files, file_size_sum: files * 10 } },
        new Date().toISOString(),
      );
      t.engine.signals.changed(id);
      await Promise.race([answer, new Promise((resolve) => setImmediate(resolve))]);
    }
    const woken = await answer;
    expect(woken.status).toBe(202);
    const job = await readJson<Job>(woken);
    expect(job).toMatchObject({ job_id: id, status: 'working' });
    expect(job.file_count).toBeGreaterThan(0);
    expect(job.file_size_sum).toBe(job.file_count! * 10);
  });
});
