// One run of a schedule over every share (issue 23's bench): a 1-minute `test` schedule with
// `all_shares`, its first occurrence reached by moving the service's clock, and one
// `scheduler.tick()` by the bench. The run is claimed, then its jobs are fed to the queue as the
// job bounds (job_queue_max_per_principal for the scheduler, job_queue_max_total) make room.
import { systemPrincipal } from '@dms/core';
import { idleLoopDelay, loopDelayWindow, stallProbe } from './loop-delay.mjs';
import { openSeededService } from './service.mjs';

/** The planning window stays open this long after the first job was queued: what the run does next is part of its start. */
const planTailMs = 50;
const idleMs = 5_000;
const runTimeoutMs = 900_000;

/** `DTSTART` text of a Date (UTC, whole seconds). */
const dtstart = (date) =>
  date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z');

/**
 * The idle service's loop delay, then the run: `planMs` (the tick to the run's claim, its one
 * audit event, after which its jobs are fed), the tick's own time, the run's jobs per second
 * (finished jobs over claim → last finished), its length, the loop delay while it planned and
 * while it fed, and what the bounds refused meanwhile.
 */
export async function scheduledRun({ adapter, pgServerUrl, shares, log }) {
  const service = await openSeededService({ adapter, pgServerUrl, shares });
  const { dms, clock, times } = service;
  try {
    const idle = await idleLoopDelay(idleMs);
    // The first occurrence well after anything the setup could reach; the clock is moved to it.
    const firstRun = new Date(Math.ceil((Date.now() + 10 * 60_000) / 60_000) * 60_000);
    const schedule = await dms.core.schedules.create(systemPrincipal, {
      name: 'every share every minute',
      action: 'test',
      all_shares: true,
      rrule: `DTSTART:${dtstart(firstRun)}\nRRULE:FREQ=MINUTELY`,
    });
    const refusedBefore = dms.core.jobs.rejections().per_principal;
    log(`${adapter}: ${shares} shares seeded, idle loop delay max ${idle.maxMs.toFixed(1)} ms; the clock moves to the first run`);

    const whole = loopDelayWindow();
    const plan = stallProbe();
    clock.offsetMs = firstRun.getTime() - Date.now();
    const tickAt = performance.now();
    const ticked = dms.scheduler.tick().then(() => performance.now() - tickAt);
    await times.until(() => times.queued.length > 0, 'the first job of the run', 60_000);
    const firstQueuedAt = times.queued[0];
    const feed = loopDelayWindow();
    await new Promise((resolve) => setTimeout(resolve, planTailMs));
    const planDelay = plan.stop();
    const tickMs = await ticked;

    await times.until(() => times.finished >= shares, `all ${shares} jobs finished`, runTimeoutMs);
    const feedDelay = feed.stop();
    const wholeDelay = whole.stop();
    const shown = await dms.core.schedules.show(systemPrincipal, String(schedule.id));
    const runS = (times.lastFinishedAt - tickAt) / 1000;
    return {
      idle,
      planMs: firstQueuedAt - tickAt,
      tickMs,
      jobsPerS: times.finished / ((times.lastFinishedAt - firstQueuedAt) / 1000),
      runS,
      planDelay,
      feedDelay,
      wholeDelay,
      queued: times.queued.length,
      failed: times.failed,
      queuedBy: Object.fromEntries(times.queuedBy),
      refused: dms.core.jobs.rejections().per_principal - refusedBefore,
      schedule: { missed: shown.missed_count, skipped: shown.skipped_count, lastRunAt: shown.last_run_at },
    };
  } finally {
    await service.close();
  }
}

/**
 * The baseline: the same tests queued by a plain loop through `core.jobs.testSaved` (shares
 * 1…N, as seeded) as a client would, under the same bounds (a refusal waits for the next job to
 * finish, then tries again: the best a feeder can do). With `unbounded`, the bounds are raised
 * above the run first: the workers' own pace.
 */
export async function directRun({ adapter, pgServerUrl, shares, unbounded = false }) {
  const service = await openSeededService({ adapter, pgServerUrl, shares });
  const { dms, times } = service;
  const { core } = dms;
  try {
    if (unbounded) await core.settings.update(systemPrincipal, { job_queue_max_per_principal: 10_000, job_queue_max_total: 100_000 });
    const whole = loopDelayWindow();
    const startedAt = performance.now();
    let refused = 0;
    for (let id = 1; id <= shares; id++) {
      // Each in a turn of its own, as requests arrive (on SQLite a call never leaves the microtask queue).
      await new Promise((resolve) => setImmediate(resolve));
      for (;;) {
        try {
          await core.jobs.testSaved(systemPrincipal, { kind: 'all' }, String(id));
          break;
        } catch (error) {
          if (error?.code !== 'rate_limited' && error?.code !== 'unavailable') throw error;
          refused += 1;
          await times.nextChange();
        }
      }
    }
    const queuedAllS = (performance.now() - startedAt) / 1000;
    await times.until(() => times.finished >= shares, `all ${shares} jobs finished`, runTimeoutMs);
    const delay = whole.stop();
    return {
      jobsPerS: times.finished / ((times.lastFinishedAt - times.queued[0]) / 1000),
      runS: (times.lastFinishedAt - startedAt) / 1000,
      queuedAllS,
      delay,
      refused,
      failed: times.failed,
    };
  } finally {
    await service.close();
  }
}
