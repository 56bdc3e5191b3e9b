import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Principal } from '../scopes/principal.js';
import { describeOnEachAdapter, testAdmin, type TestCore } from '../testing/core-on-each-adapter.js';
import { outcomeOf, refusalOf } from '../testing/domain-outcome.js';

/**
 * Issue 40, items 3 and 4 and fault F, on both adapters: a schedule acts with its creator's
 * rights (docs/decisions/107-…), a submitted rule costs its caller only (108), and a pool, NAS or
 * share that schedules aim at is not deleted (111).
 */
const minutely = 'DTSTART:20320101T000000Z\nRRULE:FREQ=MINUTELY';

describeOnEachAdapter('schedules: rights, rules and targets', (open) => {
  const start = Date.parse('2032-01-01T00:00:30.000Z');
  let now = start;
  let t: TestCore;
  let root: string;
  const admin = () => t.asUser(testAdmin.username, testAdmin.password);
  beforeEach(async () => {
    now = start;
    root = mkdtempSync(join(tmpdir(), 'dms-schedule-rights-'));
    t = await open({ clock: () => new Date(now) });
  });
  afterEach(async () => {
    await t.close();
    rmSync(root, { recursive: true, force: true });
  });

  const share = async (name: string, poolId?: number) => {
    mkdirSync(join(root, name), { recursive: true });
    const nas = await t.core.nas.create(await admin(), { name: `nas-${name}`, host: 'localhost', type: 'local' });
    const created = await t.core.shares.create(await admin(), String(nas.id), { name, path: join(root, name), ...(poolId ? { pool_id: poolId } : {}) });
    return { nas, share: created };
  };
  const key = async (scopes: Array<{ controller: string; action: string }>) => {
    const created = await t.core.apiKeys.create(await admin(), { name: `k${Math.random().toString(36).slice(2, 8)}`, api_key_scopes: scopes });
    return { ...created, as: (): Promise<Principal> => t.asBearer(created.key) };
  };
  const jobsOf = async () => (await t.core.jobs.list(await admin(), { requester: ['scheduler'] })).count;
  const tickAt = async (at: string) => {
    now = Date.parse(at);
    await t.dms.scheduler.tick();
    await t.dms.scheduler.settled();
    await t.dms.alertWatch.settled();
  };

  it('issue 40 item 3: a key holding only schedules / * may not aim a schedule at shares, and an unknown id tells it nothing', async () => {
    const { share: watched } = await share('watched');
    const schedulesOnly = await key([{ controller: 'schedules', action: '*' }]);
    const body = (target: Record<string, unknown>) => ({ name: 'sneaky', action: 'test', rrule: minutely, ...target });
    for (const target of [{ nas_share_ids: [watched.id] }, { nas_share_ids: [999_999] }, { all_shares: true }]) {
      const refused = await refusalOf(t.core.schedules.create(await schedulesOnly.as(), body(target)));
      // The same answer for a share that exists and one that does not: the scope is checked first.
      expect({ code: refused.code, message: refused.message }).toEqual({ code: 'forbidden', message: 'missing scope nas_shares / test' });
    }
    // A key that may test shares may schedule their tests, and the schedule records it as its creator.
    const tester = await key([
      { controller: 'schedules', action: '*' },
      { controller: 'nas_shares', action: 'test' },
    ]);
    const created = await t.core.schedules.create(await tester.as(), body({ nas_share_ids: [watched.id] }));
    expect(created).toMatchObject({ creator_key_id: tester.id, creator_user_id: null });
    // Nor may it take over a schedule that scans: an update is made within the updater's rights.
    const scans = await t.core.schedules.create(await admin(), { name: 'scans', action: 'scan', rrule: minutely, all_shares: true });
    expect(await outcomeOf(t.core.schedules.update(await tester.as(), String(scans.id), { rrule: minutely.replace('MINUTELY', 'HOURLY') }))).toBe('forbidden');
  });

  it('issue 40 item 3: a run acts with its creator’s rights now: a narrowed or revoked key stops its schedule (disabled, alert, audit event)', async () => {
    const { share: watched } = await share('watched');
    const tester = await key([
      { controller: 'schedules', action: '*' },
      { controller: 'nas_shares', action: 'test' },
    ]);
    const narrowed = await t.core.schedules.create(await tester.as(), { name: 'narrowed', action: 'test', rrule: minutely, nas_share_ids: [watched.id] });
    await tickAt('2032-01-01T00:01:00.000Z');
    expect(await jobsOf()).toBe(1);

    // The key loses nas_shares / test: the next run starts nothing, and the schedule stops.
    await t.core.apiKeys.update(await admin(), String(tester.id), { api_key_scopes: [{ controller: 'schedules', action: '*' }] });
    await tickAt('2032-01-01T00:02:00.000Z');
    expect(await jobsOf()).toBe(1);
    const stopped = await t.core.schedules.show(await admin(), String(narrowed.id));
    expect(stopped).toMatchObject({ enabled: false, next: null, last_error: expect.stringContaining('missing scope nas_shares / test') });
    const alerts = (await t.core.alerts.list(await admin(), { source: ['schedule_stopped'] })).alerts;
    expect(alerts).toEqual([expect.objectContaining({ resource: expect.objectContaining({ type: 'schedules', id: String(narrowed.id) }), cleared_at: null })]);
    const audited = (await t.core.auditEvents.list(await admin(), { via: ['scheduler'], action: ['update'] })).audit_events;
    expect(audited).toEqual([expect.objectContaining({ resource: expect.objectContaining({ type: 'schedules', id: String(narrowed.id) }) })]);

    // A revoked key: the same.
    const other = await key([
      { controller: 'schedules', action: '*' },
      { controller: 'nas_shares', action: '*' },
    ]);
    const revoked = await t.core.schedules.create(await other.as(), { name: 'revoked', action: 'scan', rrule: minutely, all_shares: true });
    await t.core.apiKeys.destroy(await admin(), String(other.id));
    await tickAt('2032-01-01T00:03:00.000Z');
    expect(await jobsOf()).toBe(1);
    expect(await t.core.schedules.show(await admin(), String(revoked.id))).toMatchObject({
      enabled: false,
      last_error: expect.stringContaining('no longer exists'),
    });
  });

  it('issue 40 item 3: a rule more frequent than the lowest interval is refused naming the bound; an admin may lower it', async () => {
    const { share: watched } = await share('watched');
    const body = (rrule: string) => ({ name: `r${Math.random().toString(36).slice(2, 8)}`, action: 'test', rrule, nas_share_ids: [watched.id] });
    for (const rrule of ['DTSTART:20320101T000000Z\nRRULE:FREQ=SECONDLY', 'DTSTART:20320101T000000Z\nRRULE:FREQ=HOURLY;BYMINUTE=0;BYSECOND=0,5']) {
      const refused = await refusalOf(t.core.schedules.create(await admin(), body(rrule)));
      expect(refused.code).toBe('validation');
      expect(refused.message).toContain('the lowest interval between runs is 1 minute(s) (setting schedule_min_interval_seconds)');
    }
    await t.core.settings.update(await admin(), { schedule_min_interval_seconds: 5 });
    expect(await outcomeOf(t.core.schedules.create(await admin(), body('DTSTART:20320101T000000Z\nRRULE:FREQ=SECONDLY;INTERVAL=5')))).toBe('ok');
    expect(await outcomeOf(t.core.schedules.create(await admin(), body('DTSTART:20320101T000000Z\nRRULE:FREQ=SECONDLY;INTERVAL=4')))).toBe('validation');
  });

  it('issue 40 item 4: a COUNT rule too long to count from its DTSTART at every run is refused with a 422 naming the bound', async () => {
    const refused = await refusalOf(
      t.core.schedules.create(await admin(), {
        name: 'counted',
        action: 'test',
        rrule: 'DTSTART:20320101T000000Z\nRRULE:FREQ=MINUTELY;COUNT=1000000',
        all_shares: true,
      }),
    );
    expect(refused).toMatchObject({ code: 'validation', message: expect.stringContaining('COUNT takes 1 to 10000') });
    expect(
      await outcomeOf(
        t.core.schedules.create(await admin(), {
          name: 'short',
          action: 'test',
          rrule: 'DTSTART:20320101T000000Z\nRRULE:FREQ=MINUTELY;COUNT=100',
          all_shares: true,
        }),
      ),
    ).toBe('ok');
  });

  it('issue 40 item 4: rule checks are rate-limited per caller: after a slow rule that caller waits, others do not', async () => {
    // A key of bob's: its tree is bob's, another caller than the admin.
    await t.core.users.create(await admin(), { username: 'bob', password: 'bob-pass-123456' });
    const bobKey = await t.core.apiKeys.create(await t.asUser('bob', 'bob-pass-123456'), {
      name: 'bob-key',
      api_key_scopes: [{ controller: '*', action: '*' }],
    });
    const slowCaller = { as: () => t.asBearer(bobKey.key) };
    const never = { name: 'never', action: 'test', rrule: 'DTSTART:20320101T000000Z\nRRULE:FREQ=MINUTELY;BYMONTH=2;BYMONTHDAY=30', all_shares: true };
    expect(await refusalOf(t.core.schedules.create(await slowCaller.as(), never))).toMatchObject({
      code: 'validation',
      message: expect.stringContaining('took longer'),
    });
    // The same caller, at once: refused before any evaluation, with when to come back.
    expect(await refusalOf(t.core.schedules.create(await slowCaller.as(), { ...never, rrule: minutely }))).toMatchObject({
      code: 'rate_limited',
      retryAfter: 10,
    });
    // Another caller is not held up.
    expect(await outcomeOf(t.core.schedules.create(await admin(), { ...never, rrule: minutely }))).toBe('ok');
    now += 10_001;
    expect(await outcomeOf(t.core.schedules.create(await slowCaller.as(), { ...never, name: 'later', rrule: minutely }))).toBe('ok');
  });

  it('issue 40 item 4: 100 schedules whose rule fails do not hide a later one (they back off in storage)', async () => {
    const { share: watched } = await share('watched');
    // Rules that cannot be evaluated (as a schedule saved under other rules could hold): written past the API.
    const { schedules } = await t.sameStorage();
    for (let i = 0; i < 100; i++)
      await schedules.create({
        name: `broken-${i}`,
        action: 'test',
        rrule: 'DTSTART:20320101T000000Z\nRRULE:FREQ=DAILY;BYHOUR=99',
        enabled: true,
        next_run_at: '2032-01-01T00:00:00.000Z',
        share_ids: [watched.id],
        pool_id: null,
        nas_id: null,
        all_shares: false,
        creator_user_id: null,
        creator_key_id: null,
      });
    await t.core.schedules.create(await admin(), { name: 'healthy', action: 'test', rrule: minutely, nas_share_ids: [watched.id] });
    await tickAt('2032-01-01T00:01:00.000Z');
    await tickAt('2032-01-01T00:01:01.000Z');
    expect(await t.core.schedules.show(await admin(), 'healthy')).toMatchObject({ last_run_at: '2032-01-01T00:01:01.000Z' });
    expect(await t.core.schedules.show(await admin(), 'broken-0')).toMatchObject({
      retry_at: '2032-01-01T00:02:00.000Z',
      last_error: expect.stringContaining('BYHOUR takes 0 to 23'),
    });
  });

  it('issue 40 item F: deleting a pool, a NAS or a share that a schedule aims at is refused with 409 naming the schedule', async () => {
    const pool = await t.core.pools.create(await admin(), { name: 'pool' });
    const { nas, share: watched } = await share('watched', pool.id);
    const bare = await t.core.nas.create(await admin(), { name: 'bare', host: 'localhost', type: 'local' });
    await t.core.schedules.create(await admin(), { name: 'on-share', action: 'test', rrule: minutely, nas_share_ids: [watched.id] });
    await t.core.schedules.create(await admin(), { name: 'on-pool', action: 'test', rrule: minutely, pool_id: pool.id });
    await t.core.schedules.create(await admin(), { name: 'on-nas', action: 'test', rrule: minutely, nas_id: bare.id });

    const shareRefused = await refusalOf(t.core.shares.destroy(await admin(), { kind: 'all' }, String(watched.id)));
    expect(shareRefused).toMatchObject({ code: 'conflict', message: expect.stringContaining('on-share'), details: { schedules: [{ value: 'on-share' }] } });
    const poolRefused = await refusalOf(t.core.pools.destroy(await admin(), String(pool.id)));
    expect(poolRefused).toMatchObject({ code: 'conflict', message: expect.stringContaining('on-pool') });
    const nasRefused = await refusalOf(t.core.nas.destroy(await admin(), String(bare.id)));
    expect(nasRefused).toMatchObject({ code: 'conflict', message: expect.stringContaining('on-nas') });
    // Nothing was deleted, and the schedules are all still there.
    expect((await t.core.schedules.list(await admin(), {})).count).toBe(3);
    expect(await outcomeOf(t.core.pools.show(await admin(), String(pool.id)))).toBe('ok');
    expect(await outcomeOf(t.core.nas.show(await admin(), String(bare.id)))).toBe('ok');
    // Once the schedules aim elsewhere, the deletes go through.
    await t.core.schedules.destroy(await admin(), 'on-share');
    await t.core.schedules.destroy(await admin(), 'on-pool');
    await t.core.schedules.destroy(await admin(), 'on-nas');
    expect(await outcomeOf(t.core.shares.destroy(await admin(), { kind: 'all' }, String(watched.id)))).toBe('ok');
    expect(await outcomeOf(t.core.pools.destroy(await admin(), String(pool.id)))).toBe('ok');
    expect(await outcomeOf(t.core.nas.destroy(await admin(), String(bare.id)))).toBe('ok');
    expect(nas.id).toBeGreaterThan(0);
  });
});
