import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openTestDms, type TestAdapter, type TestDms } from '../testing/test-dms.js';
import { postgresOrSkip } from '../testing/postgres-test-database.js';
import { pollUntil } from '../testing/poll-until.js';
import { systemPrincipal } from '../scopes/principal.js';
import type { Core } from '../services/create-core.js';
import type { Activity } from '../ports/activity-feed.js';

// Locally a missing server skips with the reason printed; on CI it fails.
const unreachable = await postgresOrSkip('the PostgreSQL half of the scheduler suite');

/** Polls a condition on storage (no fixed sleep): the scheduler and workers run on their own time. */
const until = <T>(read: () => T | Promise<T>, done: (value: T) => boolean, what: string, ms = 20_000) =>
  pollUntil(read, done, what, { timeoutMs: ms, everyMs: 25 });

/** A clock the test moves. */
function manualClock(start: string) {
  let now = new Date(start).getTime();
  return { clock: () => new Date(now), set: (at: string) => void (now = new Date(at).getTime()) };
}

async function localShare(core: Core, root: string, name = 'watched') {
  mkdirSync(join(root, name), { recursive: true });
  writeFileSync(join(root, name, 'a.txt'), 'hello');
  const nas = await core.nas.create(systemPrincipal, { name: `local-${name}`, host: 'localhost', type: 'local' });
  return core.shares.create(systemPrincipal, String(nas.id), { name, path: join(root, name) });
}

for (const adapter of ['sqlite', 'postgres'] as TestAdapter[]) {
  describe.skipIf(adapter === 'postgres' && unreachable !== undefined)(`scheduler (${adapter})`, () => {
    const opened: TestDms[] = [];
    const roots: string[] = [];
    afterEach(async () => {
      for (const test of opened.splice(0)) await test.close();
      for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
    });
    const open = async (options: { clock?: () => Date; dataDir?: string; databaseUrl?: string } = {}) => {
      const root = mkdtempSync(join(tmpdir(), 'dms-schedule-'));
      roots.push(root);
      const test = await openTestDms({ adapter, localRoots: [root, tmpdir()], ...(options.clock ? { core: { clock: options.clock } } : {}) });
      opened.push(test);
      return { test, root, core: test.dms.core };
    };

    it('a sub-minute schedule tests a local share again and again as the scheduler; its health follows the share', async () => {
      const { test, root, core } = await open();
      const share = await localShare(core, root);
      await core.settings.update(systemPrincipal, { schedule_min_interval_seconds: 1 });
      const schedule = await core.schedules.create(systemPrincipal, {
        name: 'every second',
        action: 'test',
        rrule: 'DTSTART:20260101T000000Z\nRRULE:FREQ=SECONDLY;INTERVAL=1',
        nas_share_ids: [share.id],
      });
      expect(schedule.next).not.toBeNull();
      await test.dms.engine.start();
      test.dms.scheduler.start();
      const jobs = await until(
        () => core.jobs.list(systemPrincipal, { requester: ['scheduler'], status: ['completed'] }),
        (page) => page.count >= 3,
        'three completed scheduled tests',
      );
      expect(jobs.jobs[0]).toMatchObject({ kind: 'share_test', nas_share_id: share.id, requester: 'scheduler' });
      expect(await core.shares.show(systemPrincipal, { kind: 'all' }, String(share.id))).toMatchObject({ health: 'ok', last_test_status: 'completed' });

      renameSync(join(root, 'watched'), join(root, 'gone'));
      await until(
        () => core.shares.show(systemPrincipal, { kind: 'all' }, String(share.id)),
        (s) => s.health === 'unreachable',
        'health unreachable',
      );
      renameSync(join(root, 'gone'), join(root, 'watched'));
      await until(
        () => core.shares.show(systemPrincipal, { kind: 'all' }, String(share.id)),
        (s) => s.health === 'ok',
        'health ok again',
      );

      const shown = await core.schedules.show(systemPrincipal, 'every second');
      expect(shown.last_run_at).not.toBeNull();
      // One audit event per run, on the schedule; its jobs write none of their own.
      const { audit_events: audited } = await core.auditEvents.list(systemPrincipal, { via: ['scheduler'], action: ['test'] });
      expect(audited.length).toBeGreaterThan(0);
      expect(audited[0]).toMatchObject({ actor: { name: 'scheduler' }, resource: { type: 'schedules', id: String(schedule.id) } });
      expect(audited.filter((event) => event.resource?.type === 'nas_shares')).toEqual([]);
    });

    it('counts what passed while it was not running as missed, runs once, and plans from now', async () => {
      const time = manualClock('2026-11-25T12:00:00Z');
      const { test, root, core } = await open({ clock: time.clock });
      const share = await localShare(core, root);
      await core.schedules.create(systemPrincipal, {
        name: 'minutely',
        action: 'scan',
        rrule: 'DTSTART:20261125T120000Z\nRRULE:FREQ=MINUTELY',
        nas_share_ids: [share.id],
      });
      const told: Activity[] = [];
      core.activity.subscribe((activity) => told.push(activity));
      // Down from 12:00:30 to 12:10:30: due at 12:01, ten more occurrences passed (12:01 runs; 12:02 … 12:10 missed = 9, plus none past).
      time.set('2026-11-25T12:10:30Z');
      await test.dms.scheduler.tick();
      await test.dms.scheduler.settled();
      const schedule = await core.schedules.show(systemPrincipal, 'minutely');
      expect(schedule).toMatchObject({ missed_count: 9, skipped_count: 0, next: '2026-11-25T12:11:00.000Z', last_run_at: '2026-11-25T12:10:30.000Z' });
      // What /metrics counts (dms_schedule_runs_total): the run fired, 9 occurrences missed.
      expect(told.filter((activity) => activity.type === 'schedule_runs')).toEqual([
        { type: 'schedule_runs', outcome: 'fired', count: 1 },
        { type: 'schedule_runs', outcome: 'missed', count: 9 },
      ]);
      expect((await core.jobs.list(systemPrincipal, { requester: ['scheduler'] })).count).toBe(1);
    });

    if (adapter === 'sqlite') {
      it('a restart over a missed window counts the occurrences it slept through as missed and runs once', async () => {
        const time = manualClock('2026-11-25T12:00:00Z');
        const dataDir = mkdtempSync(join(tmpdir(), 'dms-restart-'));
        roots.push(dataDir);
        const root = join(dataDir, 'shares');
        mkdirSync(join(root, 'watched'), { recursive: true });
        const before = await openTestDms({ adapter, dataDir, localRoots: [root], core: { clock: time.clock } });
        const nas = await before.dms.core.nas.create(systemPrincipal, { name: 'local', host: 'localhost', type: 'local' });
        const share = await before.dms.core.shares.create(systemPrincipal, String(nas.id), { name: 'watched', path: join(root, 'watched') });
        await before.dms.core.schedules.create(systemPrincipal, {
          name: 'hourly',
          action: 'test',
          rrule: 'DTSTART:20261125T120000Z\nRRULE:FREQ=HOURLY',
          nas_share_ids: [share.id],
        });
        await before.close();

        // Down for most of a day: due at 13:00, then 14:00 … 21:00 passed unseen.
        time.set('2026-11-25T21:30:00Z');
        const after = await openTestDms({ adapter, dataDir, localRoots: [root], core: { clock: time.clock } });
        opened.push(after);
        await after.dms.scheduler.tick();
        await after.dms.scheduler.settled();
        expect(await after.dms.core.schedules.show(systemPrincipal, 'hourly')).toMatchObject({ missed_count: 8, next: '2026-11-25T22:00:00.000Z' });
        expect((await after.dms.core.jobs.list(systemPrincipal, { requester: ['scheduler'] })).count).toBe(1);
        await after.dms.alertWatch.settled();
        expect((await after.dms.core.alerts.list(systemPrincipal, { source: ['schedule_missed'] })).alerts).toEqual([
          expect.objectContaining({ resource: expect.objectContaining({ type: 'schedules', name: 'hourly' }), cleared_at: null }),
        ]);
      });
    }

    it('skips a run while the previous run’s jobs are still going, and counts it', async () => {
      const time = manualClock('2026-11-25T12:00:00Z');
      const { test, root, core } = await open({ clock: time.clock });
      const share = await localShare(core, root);
      await core.schedules.create(systemPrincipal, {
        name: 'busy',
        action: 'test',
        rrule: 'DTSTART:20261125T120000Z\nRRULE:FREQ=MINUTELY',
        nas_share_ids: [share.id],
      });
      // No workers: the first run's job stays queued.
      time.set('2026-11-25T12:01:00Z');
      await test.dms.scheduler.tick();
      await test.dms.scheduler.settled();
      const told: Activity[] = [];
      core.activity.subscribe((activity) => told.push(activity));
      time.set('2026-11-25T12:02:00Z');
      await test.dms.scheduler.tick();
      expect(await core.schedules.show(systemPrincipal, 'busy')).toMatchObject({ skipped_count: 1, missed_count: 0, next: '2026-11-25T12:03:00.000Z' });
      expect(told).toEqual([{ type: 'schedule_runs', outcome: 'skipped', count: 1 }]);
      expect((await core.jobs.list(systemPrincipal, { requester: ['scheduler'] })).count).toBe(1);
    });

    it('refuses a rule it cannot read with the parser’s reason, and a target that does not exist', async () => {
      const { core } = await open();
      await expect(
        core.schedules.create(systemPrincipal, {
          name: 'bad',
          action: 'test',
          rrule: 'DTSTART:20261125T120000Z\nRRULE:FREQ=DAILY;BYHOUR=99',
          all_shares: true,
        }),
      ).rejects.toMatchObject({
        code: 'validation',
        messages: [expect.stringContaining('BYHOUR takes 0 to 23')],
      });
      await expect(
        core.schedules.create(systemPrincipal, { name: 'bad', action: 'test', rrule: 'DTSTART:20261125T120000Z\nRRULE:FREQ=DAILY', pool_id: 999 }),
      ).rejects.toMatchObject({
        code: 'validation',
        details: { pool_id: [{ error: 'not_found' }] },
      });
      await expect(
        core.schedules.create(systemPrincipal, {
          name: 'bad',
          action: 'test',
          rrule: 'DTSTART:20261125T120000Z\nRRULE:FREQ=DAILY',
          all_shares: true,
          nas_id: 1,
        }),
      ).rejects.toMatchObject({
        code: 'validation',
      });
    });

    if (adapter === 'postgres') {
      it('two replicas on one database fire each run exactly once', async () => {
        const time = manualClock('2026-11-25T12:00:00Z');
        const { test: first, root, core } = await open({ clock: time.clock });
        const share = await localShare(core, root);
        await core.schedules.create(systemPrincipal, {
          name: 'shared',
          action: 'test',
          rrule: 'DTSTART:20261125T120000Z\nRRULE:FREQ=MINUTELY',
          all_shares: true,
        });
        const { openDms } = await import('../runtime/open-dms.js');
        const second = await openDms({
          role: 'command',
          dataDir: first.dataDir,
          databaseUrl: first.databaseUrl!,
          localRoots: [root],
          trapSender: null,
          core: { clock: time.clock },
        });
        try {
          await first.dms.engine.start();
          for (const minute of ['01', '02', '03']) {
            time.set(`2026-11-25T12:${minute}:00Z`);
            await Promise.all([first.dms.scheduler.tick(), second.scheduler.tick(), first.dms.scheduler.tick(), second.scheduler.tick()]);
            await Promise.all([first.dms.scheduler.settled(), second.scheduler.settled()]);
            const { jobs } = await core.jobs.list(systemPrincipal, { requester: ['scheduler'] });
            expect(jobs.filter((job) => job.created_at === `2026-11-25T12:${minute}:00.000Z`)).toHaveLength(1);
            // Finished before the next minute, so the next run is not skipped for it.
            await until(
              () => core.jobs.list(systemPrincipal, { status: ['><queued|working'] }),
              (page) => page.count === 0,
              'the run finished',
            );
          }
          expect(await core.schedules.show(systemPrincipal, 'shared')).toMatchObject({ skipped_count: 0, missed_count: 0 });
          expect(share.id).toBeGreaterThan(0);
        } finally {
          await second.close();
        }
      });
    }
  });
}
