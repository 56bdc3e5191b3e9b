import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRPCError } from '@trpc/server';
import type { ActiveJobStatus, Job } from '@dms/core';
import type { AppCaller } from '../src/main/router/index.js';
import { adminPassword, openTestDesktop, type TestDesktop } from './test-desktop.js';

// What the Jobs and Audit screens rely on from the router (issue 22): the job history with its
// filters, pages and live follow; the audit log, admin-only; and every console change on record
// as made through the console.

let t: TestDesktop;
let admin: AppCaller;
let operator: AppCaller;
const operatorPassword = 'an operator password, long enough';
let shareId = 0;
const jobs: { adminTest?: ActiveJobStatus; adminScan?: ActiveJobStatus; operatorTest?: ActiveJobStatus; failedTest?: ActiveJobStatus } = {};

/** Resolves once the clock has moved past `iso`: the next job's created_at then sorts after it. */
async function clockPast(iso: string): Promise<void> {
  while (new Date().toISOString() <= iso) await new Promise((resolve) => setImmediate(resolve));
}

/** Follows a job to its end through jobs.follow; the next job then starts in a later millisecond. */
async function followed(caller: AppCaller, started: ActiveJobStatus): Promise<Job[]> {
  const seen: Job[] = [];
  for await (const job of await caller.jobs.follow({ jobId: started.job_id })) seen.push(job);
  await clockPast(new Date().toISOString());
  return seen;
}

/** The TRPCError a call rejects with: its tRPC code and the core's domain code. */
async function failure(call: Promise<unknown>): Promise<{ code: string; domainCode?: string; message: string }> {
  const error = await call.then(
    () => expect.fail('expected the call to fail'),
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(TRPCError);
  const trpcError = error as TRPCError;
  return { code: trpcError.code, domainCode: (trpcError.cause as { code?: string } | undefined)?.code, message: trpcError.message };
}

beforeAll(async () => {
  t = await openTestDesktop();
  admin = t.caller();
  await admin.auth.signIn({ username: 'admin', password: adminPassword });
  await admin.users.create({ username: 'operator', password: operatorPassword });
  operator = t.caller();
  await operator.auth.signIn({ username: 'operator', password: operatorPassword });
  await admin.nas.create({ name: 'filer', host: 'localhost', type: 'local' });
  shareId = (await admin.shares.create({ nas: 'filer', body: { name: 'projects', path: 'projects', username: 'svc', password: 'share secret 1' } })).id;

  // Oldest first: the admin's test and scan, the operator's test, a failed test of an unsaved share.
  jobs.adminTest = await admin.shares.test({ share: shareId });
  await followed(admin, jobs.adminTest);
  jobs.adminScan = await admin.shares.scan({ share: shareId });
  await followed(admin, jobs.adminScan);
  jobs.operatorTest = await operator.shares.test({ share: shareId });
  await followed(operator, jobs.operatorTest);
  jobs.failedTest = await admin.shares.testUnsaved({ nas: 'filer', body: { name: 'draft', path: 'no/such/dir' } });
  await followed(admin, jobs.failedTest);
});
afterAll(async () => {
  await t?.close();
});

const ids = (list: { jobs: Job[] }) => list.jobs.map((job) => job.job_id);

describe('jobs.list', () => {
  it('lists every job newest first, with the share and NAS names and who started it', async () => {
    const all = await admin.jobs.list();
    expect(all.count).toBe(4);
    expect(ids(all)).toEqual([jobs.failedTest!.job_id, jobs.operatorTest!.job_id, jobs.adminScan!.job_id, jobs.adminTest!.job_id]);
    expect(all.jobs.map(({ kind, status, requester, share_name, nas_name }) => ({ kind, status, requester, share_name, nas_name }))).toEqual([
      { kind: 'share_test', status: 'failed', requester: 'admin', share_name: null, nas_name: 'filer' },
      { kind: 'share_test', status: 'completed', requester: 'operator', share_name: 'projects', nas_name: 'filer' },
      { kind: 'share_scan', status: 'completed', requester: 'admin', share_name: 'projects', nas_name: 'filer' },
      { kind: 'share_test', status: 'completed', requester: 'admin', share_name: 'projects', nas_name: 'filer' },
    ]);
    // A user sees the jobs of every share it may see: the operator sees the admin's jobs too.
    expect((await operator.jobs.list()).count).toBe(4);
  });

  it('filters on status, kind and requester with the list operators, and pages with page/per_page', async () => {
    expect(ids(await admin.jobs.list({ status: 'failed' }))).toEqual([jobs.failedTest!.job_id]);
    expect(ids(await admin.jobs.list({ kind: 'share_scan' }))).toEqual([jobs.adminScan!.job_id]);
    expect(ids(await admin.jobs.list({ requester: 'operator' }))).toEqual([jobs.operatorTest!.job_id]);
    expect(ids(await admin.jobs.list({ status: '!=completed', kind: 'share_test' }))).toEqual([jobs.failedTest!.job_id]);
    expect(ids(await admin.jobs.list({ nas_share_id: String(shareId), sort_by: 'created_at:asc' }))).toEqual([
      jobs.adminTest!.job_id,
      jobs.adminScan!.job_id,
      jobs.operatorTest!.job_id,
    ]);

    const second = await admin.jobs.list({ page: '2', per_page: '3' });
    expect(second.count).toBe(4);
    expect(ids(second)).toEqual([jobs.adminTest!.job_id]);
    const since = (await admin.jobs.get({ jobId: jobs.operatorTest!.job_id })).created_at;
    expect(ids(await admin.jobs.list({ created_at: `>=${since}` }))).toEqual([jobs.failedTest!.job_id, jobs.operatorTest!.job_id]);
  });

  it('refuses a parameter the jobs list does not take, and a bad value with the core message', async () => {
    expect(await failure(admin.jobs.list({ bogus: 'x' }))).toMatchObject({ code: 'BAD_REQUEST' });
    expect(await failure(admin.jobs.list({ per_page: '0' }))).toMatchObject({ code: 'BAD_REQUEST', domainCode: 'bad_request' });
    expect(await failure(admin.jobs.list({ sort_by: 'nope' }))).toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining("cannot sort by 'nope'"),
    });
  });

  it('needs a signed-in user', async () => {
    expect((await failure(t.caller().jobs.list())).code).toBe('UNAUTHORIZED');
  });
});

describe('jobs.get', () => {
  it('shows one job with its steps and message, and NOT_FOUND for an unknown id', async () => {
    const failed = await admin.jobs.get({ jobId: jobs.failedTest!.job_id });
    expect(failed).toMatchObject({
      status: 'failed',
      kind: 'share_test',
      requester: 'admin',
      nas_name: 'filer',
      message: expect.stringMatching(/no\/such\/dir/),
    });
    expect(failed.steps.map((step) => [step.name, step.outcome])).toEqual([
      ['open_path', 'failed'],
      ['list', 'skipped'],
    ]);
    expect(failed.finished_at).not.toBeNull();
    expect(await admin.jobs.get({ jobId: jobs.adminScan!.job_id })).toMatchObject({ status: 'completed', file_count: 2, file_size_sum: 8 });
    expect(await failure(admin.jobs.get({ jobId: '00000000-0000-0000-0000-000000000000' }))).toMatchObject({ code: 'NOT_FOUND', domainCode: 'not_found' });
  });
});

describe('jobs.follow', () => {
  it('streams a job from its state now to its end, moving only forward', async () => {
    const started = await admin.shares.test({ share: shareId });
    const seen = await followed(admin, started);
    expect(seen.at(-1)).toMatchObject({ job_id: started.job_id, status: 'completed', progress: 2, total: 2, requester: 'admin' });
    const order = ['queued', 'working', 'completed'];
    const ranks = seen.map((job) => order.indexOf(job.status));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    const progress = seen.map((job) => job.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it('ends at once for a finished job, and refuses an unknown job or no session before streaming', async () => {
    const seen = await followed(admin, jobs.adminTest!);
    expect(seen.map((job) => job.status)).toEqual(['completed']);
    expect(await failure(admin.jobs.follow({ jobId: '00000000-0000-0000-0000-000000000000' }))).toMatchObject({ code: 'NOT_FOUND' });
    expect((await failure(t.caller().jobs.follow({ jobId: jobs.adminTest!.job_id }))).code).toBe('UNAUTHORIZED');
  });
});

describe('auditEvents.list', () => {
  it('records the console sign-ins and changes as made via the console, by their user', async () => {
    const logins = await admin.auditEvents.list({ action: 'login', actor: 'operator' });
    expect(logins.audit_events).toEqual([
      expect.objectContaining({
        via: 'console',
        client_address: 'desktop-ipc',
        outcome: 'success',
        actor: expect.objectContaining({ kind: 'user', name: 'operator' }),
      }),
    ]);
    const created = await admin.auditEvents.list({ action: 'create', resource_type: 'nas' });
    expect(created.audit_events).toEqual([
      expect.objectContaining({
        via: 'console',
        actor: expect.objectContaining({ kind: 'user', name: 'admin' }),
        resource: expect.objectContaining({ type: 'nas', name: 'filer' }),
        outcome: 'success',
      }),
    ]);
    // Every event a user caused came through the console (the first admin is the service's own, at its first start).
    expect((await admin.auditEvents.list({ via: '!=console', actor_kind: 'user' })).count).toBe(0);
    const viaConsole = await admin.auditEvents.list({ via: 'console', per_page: '100' });
    expect(new Set(viaConsole.audit_events.map((event) => event.action))).toEqual(new Set(['login', 'create', 'test', 'scan']));
  });

  it('records a failed console sign-in via the console, counted', async () => {
    await failure(t.caller().auth.signIn({ username: 'operator', password: 'wrong password' }));
    await failure(t.caller().auth.signIn({ username: 'operator', password: 'wrong again' }));
    const failed = await admin.auditEvents.list({ action: 'login_failed' });
    expect(failed.audit_events).toEqual([
      expect.objectContaining({ via: 'console', outcome: 'failure', count: 2, actor: expect.objectContaining({ name: 'operator' }) }),
    ]);
  });

  it('shows each changed field, a secret as "changed" and never its value', async () => {
    await admin.shares.update({ share: shareId, body: { options: 'ro', password: 'share secret 2' } });
    const [update] = (await admin.auditEvents.list({ action: 'update', resource_type: 'nas_shares' })).audit_events;
    expect(update?.changes).toEqual({ options: { from: null, to: 'ro' }, password: 'changed' });
    const everything = JSON.stringify(await admin.auditEvents.list({ per_page: '100' }));
    expect(everything).not.toContain('share secret');
    expect(everything).not.toContain(operatorPassword);
  });

  it('filters by action, resource type, actor, via and time, newest first, and pages', async () => {
    const all = await admin.auditEvents.list({ per_page: '100' });
    const times = all.audit_events.map((event) => event.at);
    expect(times).toEqual([...times].sort().reverse());
    const tests = await admin.auditEvents.list({ action: 'test', actor: 'admin' });
    expect(tests.audit_events.every((event) => event.action === 'test' && event.actor.name === 'admin')).toBe(true);
    expect(tests.count).toBe(3);
    const oldest = all.audit_events.at(-1)!;
    expect((await admin.auditEvents.list({ at: `>${oldest.at}`, per_page: '100' })).count).toBeLessThan(all.count);
    const page = await admin.auditEvents.list({ page: '2', per_page: '2' });
    expect(page.count).toBe(all.count);
    expect(page.audit_events.map((event) => event.id)).toEqual(all.audit_events.slice(2, 4).map((event) => event.id));
    expect(await failure(admin.auditEvents.list({ action: '', bogus: '1' }))).toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('is admin-only: FORBIDDEN to a user, UNAUTHORIZED before sign-in', async () => {
    expect(await failure(operator.auditEvents.list())).toMatchObject({ code: 'FORBIDDEN', domainCode: 'forbidden' });
    expect((await failure(t.caller().auditEvents.list())).code).toBe('UNAUTHORIZED');
  });
});
