import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRPCError } from '@trpc/server';
import type { ActiveJobStatus } from '@dms/core';
import type { AppCaller } from '../src/main/router/index.js';
import { adminPassword, openTestDesktop, type TestDesktop } from './test-desktop.js';

// What the storage screens rely on from the router: the list contract's filter, sort and pages
// for the shares table, the conflict a pool's membership can meet, and the overview's recent
// jobs with the names of what they ran on.

let t: TestDesktop;
let admin: AppCaller;
let operator: AppCaller;
const operatorPassword = 'an operator password, long enough';

beforeAll(async () => {
  t = await openTestDesktop();
  admin = t.caller();
  await admin.auth.signIn({ username: 'admin', password: adminPassword });
  await admin.users.create({ username: 'operator', password: operatorPassword });
  operator = t.caller();
  await operator.auth.signIn({ username: 'operator', password: operatorPassword });
  await admin.nas.create({ name: 'filer', host: 'localhost', type: 'local' });
  await admin.nas.create({ name: 'backup', host: 'localhost', type: 'local' });
});
afterAll(async () => {
  await t?.close();
});

/** Resolves once the clock has moved past `iso`: the next job's created_at then sorts after it. */
async function clockPast(iso: string): Promise<void> {
  while (new Date().toISOString() <= iso) await new Promise((resolve) => setImmediate(resolve));
}

async function finished(
  caller: AppCaller,
  started: ActiveJobStatus,
  target: { nas: string } | { share: number; kind: 'share_test' | 'share_scan' },
): Promise<ActiveJobStatus> {
  let last = started;
  for await (const job of await caller.jobs.progress({ jobId: started.job_id, ...target })) last = job;
  // The next job then starts in a later millisecond: creation times order the jobs without ties.
  await clockPast(new Date().toISOString());
  return last;
}

describe('shares.list as the shares table calls it', () => {
  it('names the absolute local share roots to an admin, and to no one else', async () => {
    expect(await admin.nas.localRoots()).toEqual([t.root]);
    expect(await operator.nas.localRoots()).toBeNull();
  });

  it('filters by name (~ pattern) and NAS, sorts by a column, and pages with page/per_page and count', async () => {
    const names = ['alpha', 'beta', 'gamma', 'delta', 'alphabet'];
    for (const [index, name] of names.entries()) await admin.shares.create({ nas: index % 2 === 0 ? 'filer' : 'backup', body: { name, path: 'projects' } });
    const filer = await admin.nas.show({ nas: 'filer' });

    const contains = await admin.shares.list({ query: { name: '~%alpha%', sort_by: 'name:desc', page: 1, per_page: 10 } });
    expect(contains).toMatchObject({ count: 2 });
    expect(contains.nas_shares.map((share) => share.name)).toEqual(['alphabet', 'alpha']);

    const onFiler = await admin.shares.list({ query: { nas_id: String(filer.id), sort_by: 'name' } });
    expect(onFiler.nas_shares.map((share) => share.name)).toEqual(['alpha', 'alphabet', 'gamma']);

    const second = await admin.shares.list({ query: { sort_by: 'name', page: 2, per_page: 2 } });
    expect(second.count).toBe(5);
    expect(second.nas_shares.map((share) => share.name)).toEqual(['beta', 'delta']);

    for (const share of (await admin.shares.list({ query: { per_page: 100 } })).nas_shares) await admin.shares.delete({ share: share.id });
  });
});

describe('pool membership', () => {
  it('refuses a share that is in another pool with CONFLICT and a message naming it', async () => {
    const share = await admin.shares.create({ nas: 'filer', body: { name: 'member', path: 'projects' } });
    await admin.pools.create({ name: 'hot' });
    await admin.pools.create({ name: 'cold' });
    await admin.pools.update({ pool: 'hot', body: { nas_share_ids: [share.id] } });
    const error = await admin.pools.update({ pool: 'cold', body: { nas_share_ids: [share.id] } }).then(
      () => expect.fail('expected a conflict'),
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(TRPCError);
    expect(error).toMatchObject({ code: 'CONFLICT', message: `nas_share_ids ${share.id} already belong to another pool` });
    expect(await admin.pools.show({ pool: 'cold' })).toMatchObject({ nas_share_ids: [] });
    await admin.pools.delete({ pool: 'hot' });
    await admin.pools.delete({ pool: 'cold' });
    await admin.shares.delete({ share: share.id });
  });
});

describe('overview.recentJobs', () => {
  it("lists the signed-in user's own jobs, newest first, with share and NAS names", async () => {
    const projects = await admin.shares.create({ nas: 'filer', body: { name: 'projects', path: 'projects' } });
    const gone = await admin.shares.create({ nas: 'backup', body: { name: 'gone', path: 'projects' } });

    // Each job ends before the next starts: their creation times are in this order.
    const adminTest = await finished(admin, await admin.shares.test({ share: projects.id }), { share: projects.id, kind: 'share_test' });
    const adminScan = await finished(admin, await admin.shares.scan({ share: gone.id }), { share: gone.id, kind: 'share_scan' });
    const adminUnsaved = await finished(admin, await admin.shares.testUnsaved({ nas: 'filer', body: { name: 'draft', path: 'projects' } }), { nas: 'filer' });
    const operatorScan = await finished(operator, await operator.shares.scan({ share: projects.id }), { share: projects.id, kind: 'share_scan' });
    await admin.shares.delete({ share: gone.id });

    const mine = await admin.overview.recentJobs({ limit: 10 });
    // The operator's scan is on the Jobs screen, not in the admin's recent jobs.
    expect(mine.map((job) => job.job_id)).toEqual([adminUnsaved.job_id, adminScan.job_id, adminTest.job_id]);
    expect(
      mine.map(({ kind, status, nas_share_id, share_name, nas_name, requester }) => ({ kind, status, nas_share_id, share_name, nas_name, requester })),
    ).toEqual([
      { kind: 'share_test', status: 'completed', nas_share_id: null, share_name: null, nas_name: 'filer', requester: 'admin' },
      // A deleted share keeps its id on the job, and has no name any more.
      { kind: 'share_scan', status: 'completed', nas_share_id: gone.id, share_name: null, nas_name: 'backup', requester: 'admin' },
      { kind: 'share_test', status: 'completed', nas_share_id: projects.id, share_name: 'projects', nas_name: 'filer', requester: 'admin' },
    ]);
    expect(mine[1]).toMatchObject({ file_count: 2, file_size_sum: 8, steps: expect.any(Array) });

    expect((await admin.overview.recentJobs({ limit: 2 })).map((job) => job.job_id)).toEqual([adminUnsaved.job_id, adminScan.job_id]);
    expect((await operator.overview.recentJobs()).map((job) => job.job_id)).toEqual([operatorScan.job_id]);
    expect(
      await t
        .caller()
        .overview.recentJobs()
        .catch((caught: unknown) => (caught as TRPCError).code),
    ).toBe('UNAUTHORIZED');
  });
});
