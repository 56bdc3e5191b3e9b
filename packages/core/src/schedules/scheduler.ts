import type { Storage } from '../ports/storage.js';
import type { ScheduleRecord } from '../ports/schedule-store.js';
import type { NasShareRecord } from '../ports/storage.js';
import type { ListQuery } from '../list-query/list-query.js';
import { isDomainError } from '../errors/domain-error.js';
import { RecurrenceError, type Recurrences } from './recurrence.js';

/** What the scheduler needs of the rest of the service. */
export interface SchedulerOptions {
  storage: Storage;
  recurrences: Recurrences;
  clock: () => Date;
  /** Queues one scheduled job (JobService.startScheduled); throws a DomainError when refused. */
  startJob(action: 'test' | 'scan', share: NasShareRecord, scheduleId: number): Promise<unknown>;
  /** How often storage is looked at for schedules changed on another replica. */
  pollMs?: number;
  /** Told of each run it claimed, with the occurrences it missed (the alerts raise or clear `schedule_missed`). */
  onRun?: (schedule: ScheduleRecord, missed: number) => void;
  onError?: (error: unknown) => void;
}

/** Most occurrences counted as missed in one go: a SECONDLY rule down for a year counts this many. */
export const maxMissedCounted = 100_000;
/** Shares read per page while a run walks a pool, a NAS or every share. */
const sharePage = 500;
/** How long a run waits at most for room when the job bounds refuse its next job. */
const roomWaitMs = 250;
/** How often a run waiting for room looks at how many of its jobs are still unfinished. */
const roomPollMs = 10;
/** A rule that could not be evaluated is tried again after this long, not at every tick. */
const retryAfterErrorMs = 60_000;

/**
 * Lets the event loop turn once. On SQLite (a synchronous driver) queuing a job resolves
 * without ever leaving the microtask queue: a run fed without this pause held the loop for a
 * whole batch (up to the requester's bound, 32 commits, 90-200 ms on a loaded disk).
 */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Runs schedules: sleeps until the soonest is due (or `pollMs`, for other replicas' changes),
 * claims each due run in storage (compare-and-set on its due time: across replicas a run fires
 * exactly once), counts the occurrences that passed unseen as missed (run once, not replayed),
 * and starts the run's jobs as the scheduler. A run whose previous jobs are still going is
 * skipped and counted. A run of many shares is fed to the queue as its bounds make room, off
 * the tick, so one big run does not hold the others back.
 */
export class Scheduler {
  readonly #options: Required<Pick<SchedulerOptions, 'pollMs'>> & SchedulerOptions;
  readonly #feeding = new Set<number>();
  readonly #retryAt = new Map<number, number>();
  #stop = new AbortController();
  #loop: Promise<void> | undefined;
  #wake: (() => void) | undefined;

  constructor(options: SchedulerOptions) {
    this.#options = { pollMs: 1_000, ...options };
  }

  start(): void {
    if (this.#loop) return;
    this.#stop = new AbortController();
    this.#loop = this.run();
  }

  /** A schedule changed here: look again now. */
  wake(): void {
    this.#wake?.();
  }

  /** Ends the loop; runs being fed stop feeding (their queued jobs stay queued). */
  async stop(): Promise<void> {
    this.#stop.abort();
    this.#wake?.();
    await this.#loop;
    this.#loop = undefined;
  }

  /** Runs every due schedule once (the loop's step; tests call it with an injected clock). */
  async tick(): Promise<void> {
    const now = this.#options.clock();
    const due = await this.#options.storage.schedules.due(now.toISOString(), 100);
    for (const schedule of due) {
      if (this.#stop.signal.aborted) return;
      if ((this.#retryAt.get(schedule.id) ?? 0) > now.getTime()) continue;
      try {
        await this.runDue(schedule, now);
        this.#retryAt.delete(schedule.id);
      } catch (error) {
        this.#retryAt.set(schedule.id, now.getTime() + retryAfterErrorMs);
        this.#options.onError?.(error);
      }
    }
  }

  /** Resolves once every run being fed has queued its last job (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.#feeding.size > 0) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  private async run(): Promise<void> {
    const signal = this.#stop.signal;
    while (!signal.aborted) {
      try {
        await this.tick();
      } catch (error) {
        this.#options.onError?.(error);
      }
      await this.sleep(await this.untilNextDue().catch(() => this.#options.pollMs));
    }
  }

  private async untilNextDue(): Promise<number> {
    const next = await this.#options.storage.schedules.nextDueAt();
    const wait = next === undefined ? this.#options.pollMs : Date.parse(next) - this.#options.clock().getTime();
    return Math.max(0, Math.min(wait, this.#options.pollMs));
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#wake = done;
    });
  }

  private async runDue(schedule: ScheduleRecord, now: Date): Promise<void> {
    const { storage, recurrences } = this.#options;
    const dueAt = schedule.next_run_at!;
    let plan: { count: number; next: Date | null };
    try {
      plan = await recurrences.count(schedule.rrule, new Date(dueAt), now, maxMissedCounted);
    } catch (error) {
      if (error instanceof RecurrenceError) throw new Error(`schedule ${schedule.name}: ${error.message}`, { cause: error });
      throw error;
    }
    const claimed = await storage.schedules.advance(schedule.id, {
      dueAt,
      nextRunAt: plan.next?.toISOString() ?? null,
      ranAt: now.toISOString(),
      missed: plan.count,
    });
    if (!claimed) return;
    this.#options.onRun?.(schedule, plan.count);
    if (this.#feeding.has(schedule.id) || (await storage.jobs.countUnfinishedOfSchedule(schedule.id)) > 0) {
      await storage.schedules.countSkipped(schedule.id);
      return;
    }
    this.#feeding.add(schedule.id);
    void this.feed(schedule)
      .catch((error: unknown) => this.#options.onError?.(error))
      .finally(() => this.#feeding.delete(schedule.id));
  }

  /**
   * Queues the run's jobs, one share at a time, waiting for room when the bounds refuse one,
   * and letting the loop turn between jobs (requests, workers' finishes) however fast storage answers.
   */
  private async feed(schedule: ScheduleRecord): Promise<void> {
    const signal = this.#stop.signal;
    for await (const share of this.targetShares(schedule)) {
      await nextTurn();
      for (;;) {
        if (signal.aborted) return;
        try {
          await this.#options.startJob(schedule.action, share, schedule.id);
          break;
        } catch (error) {
          // The bounds: wait for a worker to finish something. Any other refusal (a host no
          // longer allowed, a share gone) concerns this share only.
          if (isDomainError(error) && (error.code === 'rate_limited' || error.code === 'unavailable')) {
            await this.waitForRoom(schedule.id, signal);
            continue;
          }
          this.#options.onError?.(error);
          break;
        }
      }
    }
  }

  /**
   * After a refusal: waits until half of the run's jobs then unfinished have finished (read in
   * storage, which every replica's workers write), or `roomWaitMs` at most. A batch is queued
   * per refusal, not one job, and the workers are fed again before their queue runs dry: a fixed
   * pause capped a run at its bound per pause (32 per 250 ms: 128 jobs/s) however fast the
   * workers were. With none of the run's own jobs unfinished (the queue is full of others') or
   * storage not answering, the whole pause.
   */
  private async waitForRoom(scheduleId: number, signal: AbortSignal): Promise<void> {
    const unfinished = () => this.#options.storage.jobs.countUnfinishedOfSchedule(scheduleId).catch(() => undefined);
    const deadline = performance.now() + roomWaitMs;
    const refusedAt = await unfinished();
    const refillAt = refusedAt ? Math.floor(refusedAt / 2) : undefined;
    while (!signal.aborted && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, roomPollMs));
      if (refillAt === undefined) continue;
      const now = await unfinished();
      if (now !== undefined && now <= refillAt) return;
    }
  }

  /** The shares of a run's target as they are now, by id, a page at a time. */
  private async *targetShares(schedule: ScheduleRecord): AsyncGenerator<NasShareRecord> {
    const { shares } = this.#options.storage;
    if (schedule.share_ids) {
      for (const id of schedule.share_ids) {
        const share = await shares.get(id);
        if (share) yield share;
      }
      return;
    }
    const within =
      schedule.pool_id !== null
        ? [{ field: 'pool_id', op: 'eq' as const, values: [schedule.pool_id] }]
        : schedule.nas_id !== null
          ? [{ field: 'nas_id', op: 'eq' as const, values: [schedule.nas_id] }]
          : [];
    let after = 0;
    for (;;) {
      const query: ListQuery = {
        limit: sharePage,
        offset: 0,
        sort: [{ field: 'id', direction: 'asc', nullable: false }],
        filters: [...within, { field: 'id', op: 'gt', values: [after] }],
      };
      const page = await shares.list(query);
      for (const share of page.items) yield share;
      if (page.items.length < sharePage) return;
      after = page.items.at(-1)!.id;
    }
  }
}
