import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../src/testing/test-app.js';
import { addNas, addShare, addUser, expectModelError, readJson, unique, type Nas, type NasShare } from '../../src/testing/fixtures.js';

/**
 * A `local` share's path is checked when it is saved or tested unsaved: it must lead inside
 * DMS_LOCAL_ROOTS (lexically and through the symlinks that exist), else 422 on `path` naming
 * the roots. Whether the directory exists yet is not checked: a share may come before it.
 */
let t: TestApp;
let local: Nas;
// Made at load: the tables of cases below name paths inside it.
const base = mkdtempSync(join(tmpdir(), 'dms-local-paths-'));
const root = join(base, 'shares');
const outsideDir = join(base, 'outside');

beforeAll(async () => {
  mkdirSync(join(root, 'projects'), { recursive: true });
  mkdirSync(join(outsideDir, 'secret'), { recursive: true });
  symlinkSync(outsideDir, join(root, 'escape'));
  symlinkSync('projects', join(root, 'inward'));
  t = await createTestApp({ localRoots: [root] });
  await t.engine.start();
  local = await addNas(t);
});
afterAll(async () => {
  await t.close();
  rmSync(base, { recursive: true, force: true });
});

const outsideMessage = (shown: string) => `path '${shown}' is outside the local share roots (${root}); set DMS_LOCAL_ROOTS to allow another root`;
const create = (path: string, nas: Pick<Nas, 'id'> = local) =>
  t.call('POST', `/api/v2/nas/${nas.id}/nas_shares`, { auth: t.basic, body: { name: unique('s'), path } });
const update = (share: Pick<NasShare, 'id'>, body: unknown) => t.call('PUT', `/api/v2/nas_shares/${share.id}`, { auth: t.basic, body });
const testUnsaved = (path: string) => t.call('PUT', `/api/v2/nas/${local.id}/nas_shares/-/test`, { auth: t.basic, body: { name: 'probe', path } });

/** Follows a job until it ended (a long-poll answers at each change of the job). */
async function ended(jobId: string): Promise<unknown> {
  for (;;) {
    const res = await t.call('GET', `/api/v2/nas/${local.id}/nas_shares/-/test?job_id=${jobId}&wait=10`, { auth: t.basic });
    if (res.status === 200) return res.json();
    expect(res.status).toBe(202);
  }
}

async function expectOutside(res: Response, path: string, shown: string): Promise<void> {
  const body = await expectModelError(res, 422, 'path', 'invalid');
  expect(body.details['path']).toEqual([{ error: 'invalid', value: path }]);
  expect(body.messages).toEqual([outsideMessage(shown)]);
}

/** Where a path leads out of the root: given as is, and as the message shows it. */
const outsidePaths: Array<[string, string, string]> = [
  ['an absolute path outside the roots', '/etc', '/etc'],
  ['a relative path through a symlink that leads out', 'escape', join(root, 'escape')],
  ['a path below such a symlink, existing or not', 'escape/secret/not-yet', join(root, 'escape', 'secret', 'not-yet')],
];

describe('POST /nas/{nas_id}/nas_shares on a local NAS', () => {
  it.each([
    ['a relative path, in the first root', 'projects'],
    ['an absolute path inside the root', join(root, 'projects')],
    ['a directory that does not exist yet', 'made/later'],
    ['a symlink that stays inside', 'inward'],
  ])('accepts %s', async (_what, path) => {
    const res = await create(path);
    expect(res.status, await res.clone().text()).toBe(201);
    expect(await readJson<NasShare>(res)).toMatchObject({ path });
  });

  it.each(outsidePaths)('refuses %s: 422 on path naming the roots and DMS_LOCAL_ROOTS', async (_what, path, shown) => {
    await expectOutside(await create(path), path, shown);
  });

  it('leaves paths of other share types to their drivers', async () => {
    const smb = await addNas(t, { type: 'smb_v3', host: '192.0.2.10' });
    expect((await create('/etc', smb)).status).toBe(201);
  });
});

describe('PUT /nas_shares/{id} on a local NAS', () => {
  it.each(outsidePaths)('refuses a new path that is %s', async (_what, path, shown) => {
    const share = await addShare(t, local, { path: 'projects' });
    await expectOutside(await update(share, { path }), path, shown);
    expect(await readJson<NasShare>(await t.call('GET', `/api/v2/nas_shares/${share.id}`, { auth: t.basic }))).toMatchObject({ path: 'projects' });
  });

  it('accepts a new path inside the root', async () => {
    const share = await addShare(t, local, { path: 'projects' });
    const res = await update(share, { path: 'elsewhere/new' });
    expect(res.status, await res.clone().text()).toBe(200);
  });

  it('checks a stored path only when it changes: a GET body sent back passes', async () => {
    const share = await addShare(t, local, { path: 'projects' });
    // As if the roots had changed since it was saved: the path now leads out.
    await t.storage.shares.update(share.id, { path: '/etc' });
    const current = await readJson<NasShare>(await t.call('GET', `/api/v2/nas_shares/${share.id}`, { auth: t.basic }));
    expect((await update(share, { ...current, name: unique('renamed') })).status).toBe(200);
  });
});

describe('PUT /nas/{nas_id}/nas_shares/-/test on a local NAS', () => {
  it.each(outsidePaths)('refuses %s before queueing a job', async (_what, path, shown) => {
    await expectOutside(await testUnsaved(path), path, shown);
  });

  it('queues a path inside the root and says what the test reached', async () => {
    const started = await testUnsaved('projects');
    expect(started.status).toBe(202);
    const { job_id: jobId } = await readJson<{ job_id: string }>(started);
    expect(await ended(jobId)).toMatchObject({ status: 'completed', message: `opened 'projects', 0 entries listed (host path: ${join(root, 'projects')})` });
  });

  it('queues a path that does not exist yet; the test then says so', async () => {
    const started = await testUnsaved('made/later');
    expect(started.status).toBe(202);
    const { job_id: jobId } = await readJson<{ job_id: string }>(started);
    expect(await ended(jobId)).toMatchObject({ status: 'failed', message: `path 'made/later' not found on share (host path: ${join(root, 'made', 'later')})` });
  });

  it('issue 45: "not found on share" names the absolute path it checked to an admin only; a key without admin rights reads it without', async () => {
    const user = await addUser(t, { admin: false });
    const userAuth = `Basic ${Buffer.from(`${user.username}:user-password-1`).toString('base64')}`;
    const scopes = ['nas/show', 'nas_shares/show', 'nas_shares/test', 'nas_shares/create', 'jobs/index', 'jobs/show'].map((scope) => {
      const [controller, action] = scope.split('/');
      return { controller, action };
    });
    const keyOf = async (auth: string) => {
      const res = await t.call('POST', '/api/v2/api_keys', { auth, body: { name: unique('key'), api_key_scopes: scopes } });
      expect(res.status).toBe(201);
      return `Bearer ${(await readJson<{ key: string }>(res)).key}`;
    };
    const adminKey = await keyOf(t.basic);
    const plainKey = await keyOf(userAuth);
    const share = await addShare(t, local, { name: unique('backups'), path: 'backups' });
    const started = await t.call('PUT', `/api/v2/nas_shares/${share.id}/test`, { auth: plainKey });
    expect(started.status).toBe(202);
    const { job_id: jobId } = await readJson<{ job_id: string }>(started);
    const checked = join(root, 'backups');
    const full = `path 'backups' not found on share (host path: ${checked})`;
    const bare = "path 'backups' not found on share";
    const statusAs = async (auth: string) => {
      for (;;) {
        const res = await t.call('GET', `/api/v2/nas_shares/${share.id}/test?job_id=${jobId}&wait=10`, { auth });
        if (res.status === 200) return readJson<{ message: string; steps: Array<{ message?: string }> }>(res);
        expect(res.status).toBe(202);
      }
    };
    const jobAs = async (auth: string) =>
      readJson<{ message: string; steps: Array<{ message?: string }> }>(await t.call('GET', `/api/v2/jobs/${jobId}`, { auth }));
    const listedAs = async (auth: string) =>
      (await readJson<{ jobs: Array<{ job_id: string; message: string }> }>(await t.call('GET', `/api/v2/jobs?nas_share_id=${share.id}`, { auth }))).jobs.find(
        (job) => job.job_id === jobId,
      )?.message;
    for (const auth of [t.basic, adminKey]) {
      expect((await statusAs(auth)).message).toBe(full);
      const job = await jobAs(auth);
      expect(job.message).toBe(full);
      expect(job.steps.find((step) => step.message !== undefined)?.message).toBe(full);
      expect(await listedAs(auth)).toBe(full);
    }
    for (const auth of [plainKey, userAuth]) {
      expect((await statusAs(auth)).message).toBe(bare);
      const job = await jobAs(auth);
      expect(job.message).toBe(bare);
      expect(job.steps.map((step) => step.message).filter(Boolean)).toEqual([bare]);
      expect(await listedAs(auth)).toBe(bare);
    }
    // Stored once, whole: what the admin reads.
    expect((await t.storage.jobs.get(jobId))?.message).toBe(full);
    // A passed test names the real directory it opened the same way.
    const passed = await addShare(t, local, { name: unique('projects'), path: 'projects' });
    const { job_id: passedId } = await readJson<{ job_id: string }>(await t.call('PUT', `/api/v2/nas_shares/${passed.id}/test`, { auth: plainKey }));
    for (;;) {
      const res = await t.call('GET', `/api/v2/jobs/${passedId}?wait=10`, { auth: plainKey });
      if (res.status === 200) {
        expect(await readJson(res)).toMatchObject({ status: 'completed', message: "opened 'projects', 0 entries listed" });
        break;
      }
      expect(res.status).toBe(202);
    }
    expect(await readJson(await t.call('GET', `/api/v2/jobs/${passedId}`, { auth: adminKey }))).toMatchObject({
      message: `opened 'projects', 0 entries listed (host path: ${join(root, 'projects')})`,
    });
  });
});
