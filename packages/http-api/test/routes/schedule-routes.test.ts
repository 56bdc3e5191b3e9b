import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AuditEvent, Job } from '@dms/core';
import { createTestApp, type TestApp } from '../../src/testing/test-app.js';
import {
  addNas,
  addPool,
  addSchedule,
  addShare,
  dailyRule,
  expectModelError,
  joinPool,
  readJson,
  unique,
  type Nas,
  type NasShare,
  type Pool,
  type Schedule,
} from '../../src/testing/fixtures.js';

/**
 * /schedules (issue 23, docs/api.md#schedules) over REST: the CRUD of the list contract, the RRULE forms
 * and the parser's reasons for a refused rule, targets, `next` as enabled and disabled, the audit
 * trail, and runs that start jobs requested by `scheduler`.
 */

const api = (path: string) => `/api/v2${path}`;
const scheduleKeys = [
  'id',
  'name',
  'action',
  'nas_share_ids',
  'pool_id',
  'nas_id',
  'all_shares',
  'rrule',
  'enabled',
  'next',
  'last_run_at',
  'missed_count',
  'skipped_count',
  'not_started_count',
  'creator_user_id',
  'creator_key_id',
  'retry_at',
  'last_error',
  'created_at',
  'updated_at',
];

/** The first UTC midnight after `now`: when a daily rule started at a midnight is next due. */
function nextUtcMidnight(now: Date): string {
  const midnight = new Date(now);
  midnight.setUTCHours(24, 0, 0, 0);
  return midnight.toISOString();
}

/** Wall-clock hour and minute of an instant in a zone, e.g. `02:00`. */
function wallClock(instant: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(instant));
}

describe('/schedules', () => {
  let t: TestApp;
  let nas: Nas;
  let pool: Pool;
  let share: NasShare;
  /** A schedule the refusals leave unchanged, and whose name is taken. */
  let kept: Schedule;

  async function create(body: Record<string, unknown>): Promise<Schedule> {
    const res = await t.call('POST', api('/schedules'), { auth: t.basic, body });
    const text = await res.text();
    expect(res.status, text).toBe(201);
    return JSON.parse(text) as Schedule;
  }
  async function update(ref: string | number, body: Record<string, unknown>): Promise<Schedule> {
    const res = await t.call('PUT', api(`/schedules/${ref}`), { auth: t.basic, body });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    return JSON.parse(text) as Schedule;
  }
  const of = (fields: Record<string, unknown> = {}) => ({ name: unique('schedule'), action: 'test', nas_share_ids: [share.id], rrule: dailyRule, ...fields });

  beforeAll(async () => {
    t = await createTestApp();
    nas = await addNas(t);
    pool = await addPool(t);
    share = await addShare(t, nas);
    await joinPool(t, pool, [share.id]);
    kept = await addSchedule(t, [share.id], { name: 'kept' });
  });
  afterAll(() => t.close());

  it('creates a schedule of shares on a UTC rule: enabled by default, next at the rule’s next occurrence, nothing run, missed or skipped yet', async () => {
    const before = new Date();
    const created = await create(of({ name: 'daily-test' }));
    expect(Object.keys(created).sort()).toEqual([...scheduleKeys].sort());
    expect(created).toMatchObject({
      name: 'daily-test',
      action: 'test',
      nas_share_ids: [share.id],
      pool_id: null,
      nas_id: null,
      all_shares: false,
      rrule: dailyRule,
      enabled: true,
      next: nextUtcMidnight(before),
      last_run_at: null,
      missed_count: 0,
      skipped_count: 0,
    });
    for (const ref of [created.id, 'daily-test']) {
      const shown = await t.call('GET', api(`/schedules/${ref}`), { auth: t.basic });
      expect(shown.status).toBe(200);
      expect(await shown.json()).toEqual(created);
    }
  });

  it('lists schedules with count, filters and sorts them (the list contract)', async () => {
    const scan = await create(of({ action: 'scan' }));
    const off = await create(of({ enabled: false }));
    const all = await readJson<{ count: number; schedules: Schedule[] }>(await t.call('GET', api('/schedules?limit=100'), { auth: t.basic }));
    expect(all.count).toBe(all.schedules.length);
    expect(all.schedules.map((schedule) => schedule.id)).toEqual(expect.arrayContaining([scan.id, off.id]));
    const scans = await readJson<{ count: number; schedules: Schedule[] }>(await t.call('GET', api('/schedules?action=scan'), { auth: t.basic }));
    expect(scans.schedules.every((schedule) => schedule.action === 'scan')).toBe(true);
    expect(scans.schedules.map((schedule) => schedule.id)).toContain(scan.id);
    const disabled = await readJson<{ schedules: Schedule[] }>(await t.call('GET', api('/schedules?enabled=false'), { auth: t.basic }));
    expect(disabled.schedules.map((schedule) => schedule.id)).toContain(off.id);
    expect(disabled.schedules.every((schedule) => !schedule.enabled)).toBe(true);
    const byName = await readJson<{ schedules: Schedule[] }>(await t.call('GET', api('/schedules?sort_by=name:desc&limit=100'), { auth: t.basic }));
    const names = all.schedules.map((schedule) => schedule.name);
    expect(byName.schedules.map((schedule) => schedule.name)).toEqual([...names].sort().reverse());
    await expectModelError(await t.call('GET', api('/schedules?rrule=x'), { auth: t.basic }), 400, 'rrule', 'invalid');
  });

  it('filters and sorts a disabled schedule as its answer shows it: next null, lowest', async () => {
    const off = await create(of({ enabled: false }));
    const noNext = await readJson<{ schedules: Schedule[] }>(await t.call('GET', api('/schedules?next=null'), { auth: t.basic }));
    expect(noNext.schedules.map((schedule) => schedule.id)).toContain(off.id);
    const byNext = await readJson<{ schedules: Schedule[] }>(await t.call('GET', api('/schedules?sort_by=next:desc&limit=100'), { auth: t.basic }));
    expect(byNext.schedules.at(-1)?.next).toBeNull();
  });

  it('takes DTSTART;TZID as wall-clock time in its zone: a daily 02:00 in Paris is due at 02:00 Paris time, summer or winter', async () => {
    const before = Date.now();
    const created = await create(of({ rrule: 'DTSTART;TZID=Europe/Paris:20250101T020000\nRRULE:FREQ=DAILY' }));
    expect(wallClock(created.next!, 'Europe/Paris')).toBe('02:00');
    expect(Date.parse(created.next!)).toBeGreaterThan(before);
    expect(Date.parse(created.next!) - before).toBeLessThanOrEqual(25 * 3600_000);
    const newYork = await update(created.id, { rrule: 'DTSTART;TZID=America/New_York:20250301T083000\nRRULE:FREQ=WEEKLY;BYDAY=MO,WE' });
    expect(wallClock(newYork.next!, 'America/New_York')).toBe('08:30');
    expect(new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', weekday: 'short' }).format(new Date(newYork.next!))).toMatch(/^(Mon|Wed)$/);
  });

  it('allows sub-minute rules (FREQ=SECONDLY) once an admin lowers schedule_min_interval_seconds: next is due within the interval', async () => {
    await t.call('PUT', api('/settings'), { auth: t.basic, body: { schedule_min_interval_seconds: 30 } });
    const before = Date.now();
    const created = await create(of({ rrule: 'DTSTART:20250101T000000Z\nRRULE:FREQ=SECONDLY;INTERVAL=30', enabled: false }));
    expect(created.next).toBeNull();
    const enabled = await update(created.id, { enabled: true });
    expect(Date.parse(enabled.next!)).toBeGreaterThan(before);
    expect(Date.parse(enabled.next!) - before).toBeLessThanOrEqual(31_000);
  });

  it.each([
    ['DTSTART:20250101T000000\nRRULE:FREQ=DAILY', 'rrule DTSTART without a TZID must be UTC: end it with Z'],
    ['DTSTART;TZID=Europe/Paris:20250101T020000Z\nRRULE:FREQ=DAILY', 'rrule DTSTART with a TZID is a local time: drop the Z'],
    ['DTSTART;TZID=Mars/Olympus_Mons:20250101T020000\nRRULE:FREQ=DAILY', 'rrule unknown time zone Mars/Olympus_Mons'],
    ['DTSTART:20250101T000000Z\nRRULE:FREQ=DAILY;BYHOUR=25', 'rrule RRULE: BYHOUR takes 0 to 23, not 25'],
    ['DTSTART:20250101T000000Z\nRRULE:INTERVAL=2', 'rrule RRULE needs FREQ (YEARLY, MONTHLY, WEEKLY, DAILY, HOURLY, MINUTELY or SECONDLY)'],
    [
      'DTSTART:20250101T000000Z\nRRULE:FREQ=MINUTLY;INTERVAL=2',
      'rrule RRULE: FREQ=MINUTLY is not a frequency; FREQ takes YEARLY, MONTHLY, WEEKLY, DAILY, HOURLY, MINUTELY or SECONDLY',
    ],
    [
      'DTSTART:20250101T000000Z\nDTSTART:20250102T000000Z\nRRULE:FREQ=DAILY',
      'rrule needs exactly one DTSTART line, e.g. DTSTART:20261125T120000Z or DTSTART;TZID=Europe/Paris:20261125T120000',
    ],
    ['RRULE:FREQ=DAILY', 'rrule must hold a DTSTART line and an RRULE line, e.g. "DTSTART:20261125T120000Z\\nRRULE:FREQ=HOURLY"'],
  ])('refuses %j with 422 on rrule, saying why: %s', async (rrule, message) => {
    const name = unique('refused');
    for (const res of [
      await t.call('POST', api('/schedules'), { auth: t.basic, body: of({ name, rrule }) }),
      await t.call('PUT', api(`/schedules/${kept.id}`), { auth: t.basic, body: { rrule } }),
    ]) {
      const body = await expectModelError(res, 422, 'rrule', 'invalid');
      expect(body.messages).toEqual([message]);
    }
    await expectModelError(await t.call('GET', api(`/schedules/${name}`), { auth: t.basic }), 404, 'schedule_id', 'not_found');
    expect(await readJson<Schedule>(await t.call('GET', api(`/schedules/${kept.id}`), { auth: t.basic }))).toEqual(kept);
  });

  it('refuses a rule that matches no date at all (evaluation stopped at its deadline); that caller waits (429), another is answered at once', async () => {
    await t.call('POST', api('/users'), { auth: t.basic, body: { username: 'slow-rules', password: 'slow-rules-pass-1' } });
    const slow = `Basic ${Buffer.from('slow-rules:slow-rules-pass-1').toString('base64')}`;
    const body = await expectModelError(
      await t.call('POST', api('/schedules'), { auth: slow, body: of({ rrule: 'DTSTART:20250101T000000Z\nRRULE:FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=30' }) }),
      422,
      'rrule',
      'invalid',
    );
    expect(body.messages[0]).toMatch(/^rrule evaluating the rule took longer than \d+ ms: it may match no date at all/);
    const again = await t.call('POST', api('/schedules'), { auth: slow, body: of() });
    expect(again.status).toBe(429);
    expect(again.headers.get('retry-after')).toBe('10');
    await create(of());
  });

  it('issue 40 item F: DELETE of a pool, a NAS or a share that a schedule aims at answers 409 naming the schedule, and deletes nothing', async () => {
    const ownNas = await addNas(t);
    const ownPool = await addPool(t);
    const ownShare = await addShare(t, ownNas);
    const bareNas = await addNas(t);
    const aims = [
      { name: unique('aims-share'), nas_share_ids: [ownShare.id] },
      { name: unique('aims-pool'), pool_id: ownPool.id },
      { name: unique('aims-nas'), nas_id: bareNas.id },
    ];
    for (const aim of aims) await create({ action: 'test', rrule: dailyRule, ...aim });
    for (const [path, schedule] of [
      [`/nas_shares/${ownShare.id}`, aims[0]!.name],
      [`/pools/${ownPool.id}`, aims[1]!.name],
      [`/nas/${bareNas.id}`, aims[2]!.name],
    ] as const) {
      const res = await t.call('DELETE', api(path), { auth: t.basic });
      const body = await expectModelError(res, 409, 'schedules', 'frozen');
      expect(body.messages[0]).toContain(schedule);
      expect((await t.call('GET', api(path), { auth: t.basic })).status).toBe(200);
    }
    for (const aim of aims) expect((await t.call('DELETE', api(`/schedules/${aim.name}`), { auth: t.basic })).status).toBe(204);
    expect((await t.call('DELETE', api(`/nas_shares/${ownShare.id}`), { auth: t.basic })).status).toBe(204);
    expect((await t.call('DELETE', api(`/pools/${ownPool.id}`), { auth: t.basic })).status).toBe(204);
    expect((await t.call('DELETE', api(`/nas/${bareNas.id}`), { auth: t.basic })).status).toBe(204);
  });

  it('needs exactly one target that exists (422), and a name not taken (409)', async () => {
    await expectModelError(
      await t.call('POST', api('/schedules'), { auth: t.basic, body: { name: unique('none'), action: 'test', rrule: dailyRule } }),
      422,
      'target',
    );
    await expectModelError(await t.call('POST', api('/schedules'), { auth: t.basic, body: of({ pool_id: pool.id }) }), 422, 'target');
    await expectModelError(
      await t.call('POST', api('/schedules'), { auth: t.basic, body: of({ nas_share_ids: undefined, pool_id: 987654 }) }),
      422,
      'pool_id',
      'not_found',
    );
    await expectModelError(
      await t.call('POST', api('/schedules'), { auth: t.basic, body: of({ nas_share_ids: [987654] }) }),
      422,
      'nas_share_ids',
      'not_found',
    );
    await expectModelError(await t.call('POST', api('/schedules'), { auth: t.basic, body: of({ action: 'walk' }) }), 422, 'action', 'invalid');
    await expectModelError(await t.call('POST', api('/schedules'), { auth: t.basic, body: of({ name: kept.name }) }), 409, 'name', 'taken');
  });

  it('updates partially: a target field replaces the target, a disabled schedule has no next, a new rule is planned from now', async () => {
    const created = await create(of());
    const inPool = await update(created.id, { pool_id: pool.id });
    expect(inPool).toMatchObject({ nas_share_ids: null, pool_id: pool.id, nas_id: null, all_shares: false, name: created.name, rrule: dailyRule });
    expect(await update(created.name, { all_shares: true })).toMatchObject({ pool_id: null, all_shares: true });
    expect(await update(created.id, { nas_id: nas.id, action: 'scan' })).toMatchObject({ all_shares: false, nas_id: nas.id, action: 'scan' });
    const disabled = await update(created.id, { enabled: false });
    expect(disabled).toMatchObject({ enabled: false, next: null });
    const enabled = await update(created.id, { enabled: true });
    expect(enabled.next).toBe(created.next);
    const hourly = await update(created.id, { rrule: 'DTSTART:20250101T000000Z\nRRULE:FREQ=HOURLY' });
    expect(Date.parse(hourly.next!) - Date.now()).toBeLessThanOrEqual(3600_000);
    expect(hourly.updated_at >= created.updated_at).toBe(true);
    await expectModelError(await t.call('PUT', api(`/schedules/${created.id}`), { auth: t.basic, body: { pool_id: pool.id, nas_id: nas.id } }), 422, 'target');
    await expectModelError(await t.call('PUT', api(`/schedules/${created.id}`), { auth: t.basic, body: { name: kept.name } }), 409, 'name', 'taken');
  });

  it('deletes: 204 without a body, then 404 by id and by name', async () => {
    const created = await create(of());
    const res = await t.call('DELETE', api(`/schedules/${created.name}`), { auth: t.basic });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    for (const ref of [created.id, created.name]) {
      await expectModelError(await t.call('GET', api(`/schedules/${ref}`), { auth: t.basic }), 404, 'schedule_id', 'not_found');
      await expectModelError(await t.call('DELETE', api(`/schedules/${ref}`), { auth: t.basic }), 404, 'schedule_id', 'not_found');
    }
  });

  it('records each change in the audit log, via rest, with the answer’s request id', async () => {
    const created = await t.call('POST', api('/schedules'), { auth: t.basic, body: of({ name: unique('audited') }) });
    const schedule = await readJson<Schedule>(created);
    const updated = await t.call('PUT', api(`/schedules/${schedule.id}`), { auth: t.basic, body: { enabled: false } });
    const deleted = await t.call('DELETE', api(`/schedules/${schedule.id}`), { auth: t.basic });
    const { audit_events: events } = await readJson<{ audit_events: AuditEvent[] }>(
      await t.call('GET', api(`/audit_events?resource_type=schedules&resource_id=${schedule.id}&sort_by=id`), { auth: t.basic }),
    );
    expect(events.map((event) => [event.action, event.via, event.request_id])).toEqual([
      ['create', 'rest', created.headers.get('x-request-id')],
      ['update', 'rest', updated.headers.get('x-request-id')],
      ['delete', 'rest', deleted.headers.get('x-request-id')],
    ]);
    expect(events[1]!.changes).toMatchObject({ enabled: { from: true, to: false } });
    expect(events[0]!.resource).toEqual({ type: 'schedules', id: String(schedule.id), name: schedule.name });
  });
});

describe('a schedule’s runs, seen over REST', () => {
  let t: TestApp;
  let root: string;
  let share: NasShare;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'dms-schedule-runs-'));
    mkdirSync(join(root, 'watched'));
    writeFileSync(join(root, 'watched', 'a.txt'), 'abc');
    t = await createTestApp({ localRoots: [root] });
    share = await addShare(t, await addNas(t, { type: 'local', host: 'localhost' }), { path: 'watched' });
    await t.engine.start();
    t.scheduler.start();
  });
  afterAll(async () => {
    await t.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('a SECONDLY rule starts test jobs requested by scheduler (GET /jobs), sets last_run_at and the share’s health; disabled, it has no next', async () => {
    await t.call('PUT', api('/settings'), { auth: t.basic, body: { schedule_min_interval_seconds: 1 } });
    const res = await t.call('POST', api('/schedules'), {
      auth: t.basic,
      body: { name: 'every-second', action: 'test', nas_share_ids: [share.id], rrule: 'DTSTART:20250101T000000Z\nRRULE:FREQ=SECONDLY' },
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const schedule = await readJson<Schedule>(res);

    const scheduledJobs = async () =>
      readJson<{ count: number; jobs: Job[] }>(
        await t.call('GET', api(`/jobs?requester=scheduler&nas_share_id=${share.id}&status=completed`), { auth: t.basic }),
      );
    await vi.waitFor(async () => expect((await scheduledJobs()).count).toBeGreaterThanOrEqual(2), { timeout: 20_000, interval: 100 });
    const { jobs } = await scheduledJobs();
    expect(jobs[0]).toMatchObject({ kind: 'share_test', requester: 'scheduler', nas_share_id: share.id, status: 'completed' });

    const shown = await readJson<Schedule>(await t.call('GET', api(`/schedules/${schedule.id}`), { auth: t.basic }));
    expect(shown.last_run_at).not.toBeNull();
    expect(Date.parse(shown.next!)).toBeGreaterThan(Date.parse(shown.last_run_at!));
    const tested = await readJson<NasShare>(await t.call('GET', api(`/nas_shares/${share.id}`), { auth: t.basic }));
    expect(tested).toMatchObject({ health: 'ok', last_test_status: 'completed' });
    expect(tested.last_tested_at).not.toBeNull();

    // Disabled, it is due no more: the scheduler plans runs from `next` alone.
    const disabled = await t.call('PUT', api(`/schedules/${schedule.id}`), { auth: t.basic, body: { enabled: false } });
    expect(await readJson<Schedule>(disabled)).toMatchObject({ enabled: false, next: null });
  });
});
