import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TRPCError } from '@trpc/server';
import type { ActiveJobStatus, Job } from '@dms/core';
import type { AppCaller } from '../src/main/router/index.js';
import { adminPassword, openTestDesktop, type TestDesktop } from './test-desktop.js';

// What the dashboard, the Schedules, Alerts and Alert settings screens rely on from the router
// (issue 23), over a real SQLite core: schedules with their rule's 422, alerts raised and cleared
// by share tests, dismissed and counted for the header's badge, per-source settings (admins
// only), a share's scan history, the capacity per NAS and pool, and the shares' health.

let t: TestDesktop;
let admin: AppCaller;
let operator: AppCaller;
const operatorPassword = 'an operator password, long enough';
let projectsId = 0;
let laterId = 0;

/** Follows a job to its end through jobs.follow. */
async function finished(caller: AppCaller, started: ActiveJobStatus): Promise<Job> {
  let last: Job | undefined;
  for await (const job of await caller.jobs.follow({ jobId: started.job_id })) last = job;
  if (!last) throw new Error(`job ${started.job_id} was never seen`);
  return last;
}

/** The TRPCError a call rejects with: its tRPC code, the core's domain code, its message and messages. */
async function failure(call: Promise<unknown>): Promise<{ code: string; domainCode?: string; message: string; messages: string[] }> {
  const error = await call.then(
    () => expect.fail('expected the call to fail'),
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(TRPCError);
  const trpcError = error as TRPCError;
  const cause = trpcError.cause as { code?: string; messages?: string[] } | undefined;
  return { code: trpcError.code, domainCode: cause?.code, message: trpcError.message, messages: cause?.messages ?? [] };
}

beforeAll(async () => {
  t = await openTestDesktop();
  admin = t.caller();
  await admin.auth.signIn({ username: 'admin', password: adminPassword });
  await admin.users.create({ username: 'operator', password: operatorPassword });
  operator = t.caller();
  await operator.auth.signIn({ username: 'operator', password: operatorPassword });
  await admin.nas.create({ name: 'filer', host: 'localhost', type: 'local' });
  projectsId = (await admin.shares.create({ nas: 'filer', body: { name: 'projects', path: 'projects' } })).id;
  // Its directory is made later: its first test fails, its second passes.
  laterId = (await admin.shares.create({ nas: 'filer', body: { name: 'later', path: 'later' } })).id;
  const pool = await admin.pools.create({ name: 'tier1', type: 'primary', content: 'nas' });
  await admin.pools.update({ pool: pool.id, body: { nas_share_ids: [projectsId] } });
});
afterAll(async () => {
  await t?.close();
});

const rule = 'DTSTART;TZID=Europe/Paris:20301125T120000\nRRULE:FREQ=HOURLY;INTERVAL=2;BYDAY=MO,WE';

describe('schedules', () => {
  it('creates, lists, shows, updates and deletes a schedule with its read-only run facts', async () => {
    const created = await admin.schedules.create({ name: 'nightly scan', action: 'scan', nas_share_ids: [projectsId], rrule: rule });
    expect(created).toMatchObject({ name: 'nightly scan', action: 'scan', nas_share_ids: [projectsId], pool_id: null, all_shares: false, rrule: rule });
    expect(created).toMatchObject({ enabled: true, last_run_at: null, missed_count: 0, skipped_count: 0 });
    // The first Monday or Wednesday from DTSTART on, Paris time, in UTC: Monday 25 November 2030 at 12:00 (11:00 UTC).
    expect(created.next).toBe('2030-11-25T11:00:00.000Z');

    const listed = await operator.schedules.list({ sort_by: 'name' });
    expect(listed.count).toBe(1);
    expect(listed.schedules[0]!.id).toBe(created.id);
    expect(await operator.schedules.show({ schedule: 'nightly scan' })).toEqual(created);

    const updated = await admin.schedules.update({ schedule: created.id, body: { enabled: false, pool_id: 1 } });
    expect(updated).toMatchObject({ enabled: false, next: null, pool_id: 1, nas_share_ids: null });
    await admin.schedules.delete({ schedule: created.id });
    expect((await admin.schedules.list()).count).toBe(0);
  });

  it("refuses a rule the parser refuses, with the parser's reason on the rrule field", async () => {
    const refused = await failure(
      admin.schedules.create({ name: 'broken', action: 'test', all_shares: true, rrule: 'DTSTART:20301125T120000Z\nRRULE:FREQ=SOMETIMES' }),
    );
    expect(refused).toMatchObject({ code: 'BAD_REQUEST', domainCode: 'validation' });
    // The parser's reason, as one message the console shows under its rule field.
    expect(refused.message).toMatch(/^rrule .*FREQ/);
    expect(refused.messages).toEqual([refused.message]);
    // A body naming two targets: refused by the schema, on the form's target field.
    const twoTargets = await failure(admin.schedules.create({ name: 'two', action: 'test', all_shares: true, nas_id: 1, rrule: rule }));
    expect(twoTargets.messages).toEqual([expect.stringMatching(/^target /)]);
  });

  it('refuses a list parameter the schedules list does not take, before the core', async () => {
    expect((await failure(admin.schedules.list({ colour: 'red' } as never))).code).toBe('BAD_REQUEST');
  });
});

describe('shares: health, scan history and capacity', () => {
  it('says a share is unknown before its first test and not scanned before its first scan', async () => {
    const share = await admin.shares.show({ share: projectsId });
    expect(share).toMatchObject({ health: 'unknown', last_tested_at: null, last_test_status: null, last_scanned_at: null });
    expect((await admin.overview.show()).share_health).toEqual({ ok: 0, unreachable: 0, unknown: 2 });
    expect(await admin.shares.scans({ share: projectsId })).toEqual({ count: 0, scans: [] });
  });

  it('keeps every scan, newest first, and the capacity grows with the files added between two scans', async () => {
    const first = await finished(admin, await admin.shares.scan({ share: projectsId }));
    expect(first.status).toBe('completed');
    writeFileSync(join(t.root, 'projects', 'c.txt'), 'more bytes');
    await finished(admin, await admin.shares.scan({ share: projectsId }));

    const { count, scans } = await operator.shares.scans({ share: projectsId });
    expect(count).toBe(2);
    expect(scans.map(({ file_count, file_size_sum }) => ({ file_count, file_size_sum }))).toEqual([
      { file_count: 3, file_size_sum: 18 },
      { file_count: 2, file_size_sum: 8 },
    ]);
    expect(scans[0]!.at >= scans[1]!.at).toBe(true);
    expect((await admin.shares.scans({ share: projectsId, query: { sort_by: 'at:asc', limit: '1' } })).scans[0]!.file_count).toBe(2);
    expect((await admin.shares.show({ share: projectsId })).last_scanned_at).toBe(scans[0]!.at);

    const capacity = await operator.statistics.capacity();
    expect(capacity.period_days).toBe(30);
    expect(capacity.totals).toMatchObject({
      file_count: 3,
      file_size_sum: 18,
      shares_scanned: 1,
      shares_not_scanned: 1,
      growth: { file_count: 1, file_size_sum: 10 },
    });
    expect(capacity.nas).toEqual([expect.objectContaining({ name: 'filer', file_count: 3, growth: { file_count: 1, file_size_sum: 10 } })]);
    expect(capacity.pools).toEqual([expect.objectContaining({ name: 'tier1', file_size_sum: 18, shares_scanned: 1, shares_not_scanned: 0 })]);
    expect((await admin.statistics.capacity({ days: 7 })).period_days).toBe(7);
  });
});

describe('alerts', () => {
  let alertId = 0;

  it('raises one alert when a share becomes unreachable, counted for the badge until dismissed', async () => {
    expect(await operator.alerts.unseenCount()).toBe(0);
    expect((await finished(admin, await admin.shares.test({ share: laterId }))).status).toBe('failed');
    await expect.poll(() => operator.alerts.unseenCount()).toBe(1);
    const open = await operator.alerts.list({ cleared_at: 'null' });
    expect(open.count).toBe(1);
    const alert = open.alerts[0]!;
    alertId = alert.id;
    expect(alert).toMatchObject({
      source: 'share_unreachable',
      level: 4,
      cleared_at: null,
      dismissed_at: null,
      resource: { type: 'nas_shares', name: 'later' },
    });
    expect(await operator.alerts.show({ alert: alertId })).toEqual(alert);
    expect((await admin.overview.show()).share_health).toEqual({ ok: 0, unreachable: 1, unknown: 1 });
    expect((await admin.shares.list({ query: { health: 'unreachable' } })).nas_shares.map((share) => share.name)).toEqual(['later']);
  });

  it('dismisses and undismisses an alert: it stays open, and leaves the badge while dismissed', async () => {
    // Issue 40 item 12, the core's rule through the router: a share's alert is an admin's to dismiss (a share has no owner).
    const refused = await failure(operator.alerts.dismiss({ alert: alertId, dismissed: true }));
    expect([refused.code, refused.domainCode]).toEqual(['FORBIDDEN', 'forbidden']);
    const dismissed = await admin.alerts.dismiss({ alert: alertId, dismissed: true });
    expect(dismissed.dismissed_at).not.toBeNull();
    expect(dismissed.cleared_at).toBeNull();
    expect(await operator.alerts.unseenCount()).toBe(0);
    expect((await operator.alerts.list({ cleared_at: 'null', dismissed_at: '!=null' })).count).toBe(1);
    expect((await admin.alerts.dismiss({ alert: alertId, dismissed: false })).dismissed_at).toBeNull();
    expect(await operator.alerts.unseenCount()).toBe(1);
    expect((await failure(operator.alerts.dismiss({ alert: 999_999, dismissed: true }))).code).toBe('NOT_FOUND');
  });

  it('clears the alert when the share passes its next test', async () => {
    mkdirSync(join(t.root, 'later'));
    expect((await finished(admin, await admin.shares.test({ share: laterId }))).status).toBe('completed');
    await expect.poll(() => operator.alerts.unseenCount()).toBe(0);
    expect((await operator.alerts.show({ alert: alertId })).cleared_at).not.toBeNull();
    expect((await operator.alerts.list({ source: 'share_unreachable' })).count).toBe(1);
    expect((await admin.overview.show()).share_health).toEqual({ ok: 1, unreachable: 0, unknown: 1 });
  });

  it('refuses a filter the alerts list does not take', async () => {
    expect((await failure(operator.alerts.list({ colour: 'red' } as never))).code).toBe('BAD_REQUEST');
  });
});

describe('alertSettings', () => {
  it('lists every source with its default level and description', async () => {
    const { count, alert_settings } = await operator.alertSettings.list();
    expect(count).toBe(alert_settings.length);
    expect(alert_settings.find((setting) => setting.source === 'share_unreachable')).toMatchObject({ enabled: true, level: 4 });
    expect(alert_settings.every((setting) => setting.description.length > 0)).toBe(true);
  });

  it('lets an admin change a source, and refuses a user', async () => {
    expect(await admin.alertSettings.update({ source: 'scan_failed', body: { level: 5, enabled: false } })).toMatchObject({
      source: 'scan_failed',
      level: 5,
      enabled: false,
    });
    expect((await operator.alertSettings.list()).alert_settings.find((setting) => setting.source === 'scan_failed')).toMatchObject({
      level: 5,
      enabled: false,
    });
    expect(await failure(operator.alertSettings.update({ source: 'scan_failed', body: { enabled: true } }))).toMatchObject({
      code: 'FORBIDDEN',
      // An operator's role reads the alert settings; changing them is not in it (docs/api.md#roles).
      message: 'missing scope alert_settings / update',
    });
    expect((await failure(admin.alertSettings.update({ source: 'nothing', body: { enabled: true } }))).code).toBe('NOT_FOUND');
    expect((await failure(admin.alertSettings.update({ source: 'scan_failed', body: { level: 9 } }))).domainCode).toBe('validation');
  });
});
