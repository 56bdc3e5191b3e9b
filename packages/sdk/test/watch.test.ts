import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DmsApiError, DmsJobFailedError, gte, isNull, like, type Alert, type Nas, type NasShare } from '../src/index.js';
import { adminPassword } from './support/dms-server.js';
import { useDms } from './support/fixture.js';

const t = useDms();

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

/** Reads until `done` holds: the scheduler, the workers and the alert sources run on their own time (no fixed sleep). */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** `count` one-byte files more in the local share directory `name`. */
function addFiles(name: string, from: number, count: number): void {
  const dir = join(t.server.localRoot, name);
  mkdirSync(dir, { recursive: true });
  for (let i = from; i < from + count; i++) writeFileSync(join(dir, `f${i}`), 'x');
}

/** What a call rejected with (or undefined when it resolved). */
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

let nas: Nas;
beforeAll(async () => {
  nas = await t.dms.nas.create({ name: 'nas-watch', host: 'localhost', type: 'local' });
});

describe('schedules', () => {
  it('creates, gets, lists, updates and deletes; next follows the rule and its time zone', async () => {
    const share = await t.dms.nasShares.create(nas.id, { name: 'scheduled', path: 'scheduled' });
    const nightly = await t.dms.schedules.create({
      name: 'nightly scan',
      action: 'scan',
      nas_share_ids: [share.id],
      rrule: 'DTSTART:20300101T020000Z\nRRULE:FREQ=DAILY',
    });
    expect(nightly).toMatchObject({
      name: 'nightly scan',
      action: 'scan',
      nas_share_ids: [share.id],
      pool_id: null,
      nas_id: null,
      all_shares: false,
      enabled: true,
      next: '2030-01-01T02:00:00.000Z',
      last_run_at: null,
      missed_count: 0,
      skipped_count: 0,
    });
    expect(await t.dms.schedules.get(nightly.id)).toEqual(nightly);
    expect(await t.dms.schedules.get('nightly scan')).toEqual(nightly);
    const weekly = await t.dms.schedules.create({
      name: 'weekly test',
      action: 'test',
      nas_id: nas.id,
      rrule: 'DTSTART;TZID=Europe/Paris:20300107T090000\nRRULE:FREQ=WEEKLY;BYDAY=MO',
      enabled: false,
    });
    expect(weekly).toMatchObject({ nas_id: nas.id, nas_share_ids: null, enabled: false, next: null });

    const mine = { id: [gte(nightly.id)] };
    const page = await t.dms.schedules.list({ filter: { ...mine, action: 'scan' } });
    expect(page).toEqual({ count: 1, schedules: [nightly] });
    expect((await t.dms.schedules.list({ filter: { ...mine, enabled: false } })).schedules.map((s) => s.id)).toEqual([weekly.id]);
    expect((await collect(t.dms.schedules.listAll({ filter: { ...mine, name: like('%ly%') }, sortBy: 'created_at:desc', limit: 1 }))).map((s) => s.id)).toEqual(
      [weekly.id, nightly.id],
    );

    // Enabled, a Paris 09:00 on a Monday in January is 08:00 UTC.
    const enabled = await t.dms.schedules.update(weekly.id, { enabled: true, name: 'monday test' });
    expect(enabled).toMatchObject({ name: 'monday test', enabled: true, next: '2030-01-07T08:00:00.000Z' });
    // A target given replaces the other.
    expect(await t.dms.schedules.update(weekly.id, { all_shares: true })).toMatchObject({ all_shares: true, nas_id: null });

    await t.dms.schedules.delete(nightly.id);
    await t.dms.schedules.delete(weekly.id);
    await expect(t.dms.schedules.get(nightly.id)).rejects.toMatchObject({ name: 'DmsApiError', status: 404, kind: 'not_found' });
  });

  it('refuses a rule the RRULE parser refuses with a 422 saying why', async () => {
    const share = await t.dms.nasShares.create(nas.id, { name: 'bad-rule', path: 'bad-rule' });
    const bad = await refusal(
      t.dms.schedules.create({ name: 'bad hour', action: 'test', nas_share_ids: [share.id], rrule: 'DTSTART:20300101T000000Z\nRRULE:FREQ=DAILY;BYHOUR=99' }),
    );
    expect(bad).toBeInstanceOf(DmsApiError);
    expect(bad).toMatchObject({ status: 422, kind: 'validation', details: { rrule: [expect.objectContaining({ error: 'invalid' })] } });
    expect((bad as DmsApiError).messages.join('\n')).toContain('BYHOUR takes 0 to 23');

    const schedule = await t.dms.schedules.create({
      name: 'good rule',
      action: 'test',
      nas_share_ids: [share.id],
      rrule: 'DTSTART:20300101T000000Z\nRRULE:FREQ=DAILY',
      enabled: false,
    });
    const badUpdate = await refusal(t.dms.schedules.update(schedule.id, { rrule: 'DTSTART;TZID=Mars/Olympus:20300101T000000\nRRULE:FREQ=DAILY' }));
    expect(badUpdate).toMatchObject({ status: 422, kind: 'validation' });
    expect((badUpdate as DmsApiError).messages.join('\n')).toContain('unknown time zone');
    expect(await t.dms.schedules.get(schedule.id)).toEqual(schedule);
    await t.dms.schedules.delete(schedule.id);
  });

  it('runs a sub-minute rule: jobs requested by the scheduler, last_run_at set', async () => {
    addFiles('every-second', 0, 1);
    const share = await t.dms.nasShares.create(nas.id, { name: 'every-second', path: 'every-second' });
    // Sub-minute rules need an admin to lower the lowest interval (60 s by default).
    await t.dms.settings.update({ schedule_min_interval_seconds: 1 });
    const schedule = await t.dms.schedules.create({
      name: 'every second',
      action: 'test',
      nas_share_ids: [share.id],
      rrule: 'DTSTART:20260101T000000Z\nRRULE:FREQ=SECONDLY;INTERVAL=1',
    });
    const byScheduler = { requester: 'scheduler', nas_share_id: share.id, status: 'completed' };
    await until(
      () => t.dms.jobs.list({ filter: byScheduler }),
      (page) => page.count >= 2,
      'two scheduled tests',
    );
    const ran = await t.dms.schedules.update(schedule.id, { enabled: false });
    expect(ran).toMatchObject({ enabled: false, next: null, last_run_at: expect.any(String) });
    expect((await t.dms.nasShares.get(share.id)).health).toBe('ok');
  });
});

describe('alerts', () => {
  let share: NasShare;
  let alert: Alert;
  beforeAll(async () => {
    // A saved share whose directory does not exist (yet): its test fails.
    share = await t.dms.nasShares.create(nas.id, { name: 'vanishing', path: 'vanishing' });
    const failed = await refusal((await t.dms.nasShares.retest(share.id)).wait());
    expect(failed).toBeInstanceOf(DmsJobFailedError);
    const raised = { source: 'share_unreachable', resource_type: 'nas_shares', resource_id: String(share.id) };
    [alert] = (
      await until(
        () => t.dms.alerts.list({ filter: raised }),
        (page) => page.count > 0,
        'the share_unreachable alert',
      )
    ).alerts as [Alert];
  });

  it('raises one alert when a test of a share fails, and gets it', async () => {
    expect(alert).toMatchObject({
      source: 'share_unreachable',
      level: 4,
      resource: { type: 'nas_shares', id: String(share.id), name: 'vanishing' },
      message: expect.any(String),
      cleared_at: null,
      dismissed_at: null,
    });
    expect(await t.dms.alerts.get(alert.id)).toEqual(alert);
    expect((await t.dms.nasShares.get(share.id)).health).toBe('unreachable');
    // The open alerts, page after page.
    expect((await collect(t.dms.alerts.listAll({ filter: { cleared_at: isNull() }, limit: 1 }))).map((open) => open.id)).toContain(alert.id);
  });

  it('dismisses an alert and takes the dismissal back', async () => {
    const dismissed = await t.dms.alerts.dismiss(alert.id);
    expect(dismissed).toMatchObject({ id: alert.id, dismissed_at: expect.any(String), cleared_at: null });
    const unseen = { cleared_at: isNull(), dismissed_at: isNull() };
    expect((await t.dms.alerts.list({ filter: unseen })).alerts.map((open) => open.id)).not.toContain(alert.id);
    expect(await t.dms.alerts.undismiss(alert.id)).toMatchObject({ id: alert.id, dismissed_at: null });
    expect((await t.dms.alerts.list({ filter: unseen })).alerts.map((open) => open.id)).toContain(alert.id);
    await expect(t.dms.alerts.get(999_999)).rejects.toMatchObject({ status: 404, kind: 'not_found' });
  });

  it('clears the alert when the share passes its next test', async () => {
    addFiles('vanishing', 0, 1);
    await (await t.dms.nasShares.retest(share.id)).wait();
    const cleared = await until(
      () => t.dms.alerts.get(alert.id),
      (now) => now.cleared_at !== null,
      'the alert cleared',
    );
    expect(cleared).toMatchObject({ id: alert.id, raised_at: alert.raised_at });
    expect((await t.dms.nasShares.get(share.id)).health).toBe('ok');
    rmSync(join(t.server.localRoot, 'vanishing'), { recursive: true });
  });
});

describe('alert settings', () => {
  it('lists every source with its level, and changes one as an administrator', async () => {
    const { count, alert_settings } = await t.dms.alertSettings.list();
    expect(count).toBe(alert_settings.length);
    expect(alert_settings.find((setting) => setting.source === 'share_unreachable')).toMatchObject({
      enabled: true,
      level: 4,
      description: expect.any(String),
      raise_after_seconds: null,
      clear_after_seconds: 0,
    });
    expect(await t.admin.alertSettings.update('scan_failed', { raise_after_seconds: 600, clear_after_seconds: 60 })).toMatchObject({
      raise_after_seconds: 600,
      clear_after_seconds: 60,
    });
    await t.admin.alertSettings.update('scan_failed', { raise_after_seconds: null, clear_after_seconds: 0 });

    expect(await t.admin.alertSettings.update('scan_failed', { level: 5 })).toMatchObject({ source: 'scan_failed', enabled: true, level: 5 });
    expect(await t.admin.alertSettings.update('scan_failed', { enabled: false })).toMatchObject({ enabled: false, level: 5 });
    expect((await t.dms.alertSettings.list()).alert_settings.find((setting) => setting.source === 'scan_failed')).toMatchObject({ enabled: false, level: 5 });
    await t.admin.alertSettings.update('scan_failed', { enabled: true, level: 3 });
  });

  it('is 403 for a user who is not an administrator', async () => {
    await t.admin.users.create({ username: 'watcher', password: 'a-long-password' });
    const user = t.client({ auth: { basic: { username: 'watcher', password: 'a-long-password' } } });
    const refused = await refusal(user.alertSettings.update('scan_failed', { level: 1 }));
    expect(refused).toBeInstanceOf(DmsApiError);
    expect(refused).toMatchObject({ status: 403, kind: 'forbidden' });
    const admin = t.client({ auth: { basic: { username: 'admin', password: adminPassword } } });
    expect((await admin.alertSettings.list()).alert_settings.find((setting) => setting.source === 'scan_failed')).toMatchObject({ level: 3 });
  });
});

describe('scans and capacity', () => {
  it('keeps every completed scan: two scans with files added between them are two rows, and the growth', async () => {
    const growing = await t.dms.nas.create({ name: 'nas-growing', host: 'localhost', type: 'local' });
    addFiles('growing', 0, 3);
    const share = await t.dms.nasShares.create(growing.id, { name: 'growing', path: 'growing' });
    const pool = await t.dms.pools.create({ name: 'pool-growing' });
    await t.dms.pools.setShares(pool.id, [share.id]);
    expect((await t.dms.nasShares.get(share.id)).last_scanned_at).toBeNull();

    await (await t.dms.nasShares.scan(share.id)).wait();
    addFiles('growing', 3, 2);
    await (await t.dms.nasShares.scan(share.id)).wait();

    const { count, scans } = await t.dms.nasShares.scans(share.id);
    expect(count).toBe(2);
    // Newest first.
    expect(scans.map((scan) => [scan.file_count, scan.file_size_sum])).toEqual([
      [5, 5],
      [3, 3],
    ]);
    expect(scans[0]!.at >= scans[1]!.at).toBe(true);
    for (const scan of scans) expect(scan.duration_ms).toBeGreaterThanOrEqual(0);
    expect((await t.dms.nasShares.get(share.id)).last_scanned_at).toBe(scans[0]!.at);

    const before = t.responses.checked.length;
    expect(await collect(t.dms.nasShares.allScans(share.id, { sortBy: 'at:asc', limit: 1 }))).toEqual([scans[1], scans[0]]);
    expect(t.responses.checked.slice(before)).toEqual(Array(2).fill('GET /nas_shares/{nas_share_id}/scans 200'));
    expect((await t.dms.nasShares.scans(share.id, { filter: { file_count: gte(4) } })).scans).toEqual([scans[0]]);

    const capacity = await t.dms.statistics.capacity({ days: 7 });
    expect(capacity.period_days).toBe(7);
    const sizes = { file_count: 5, file_size_sum: 5, shares_scanned: 1, shares_not_scanned: 0, growth: { file_count: 2, file_size_sum: 2 } };
    // Beside the counts, each row carries the size its shares' file systems reported (issue 42).
    const space = { capacity_bytes: expect.any(Number), free_bytes: expect.any(Number), shares_with_capacity: 1, shares_merged: 0 };
    expect(capacity.nas.find((each) => each.nas_id === growing.id)).toMatchObject({ nas_id: growing.id, name: 'nas-growing', ...sizes, ...space });
    expect(capacity.pools.find((each) => each.pool_id === pool.id)).toMatchObject({ pool_id: pool.id, name: 'pool-growing', ...sizes, ...space });
    expect(capacity.totals.growth.file_count).toBeGreaterThanOrEqual(2);
    expect((await t.dms.statistics.capacity()).period_days).toBe(30);
    await expect(t.dms.statistics.capacity({ days: 0 })).rejects.toMatchObject({ name: 'DmsApiError', status: 400 });
  });
});
