import { randomUUID } from 'node:crypto';
import type { Storage, Stores } from '../ports/storage.js';
import type { ScheduleRecord, ScheduleRunRecord } from '../ports/schedule-store.js';
import type { NasShareRecord } from '../ports/storage.js';
import type { ListQuery } from '../list-query/list-query.js';
import type { AuditTrail } from '../services/audit-trail.js';
import { auditResource } from '../services/audit-trail.js';
import { isDomainError } from '../errors/domain-error.js';
import { schedulerPrincipal, type Principal } from '../scopes/principal.js';
import { RecurrenceError, type Recurrences } from './recurrence.js';
import { creatorOf, mayActOn } from './schedule-creator.js';
import { ROOT_CONTEXT, inSpan } from '../tracing/spans.js';
import type { ActivityFeed } from '../ports/activity-feed.js';

/** What the scheduler needs of the rest of the service. */
export interface SchedulerOptions {
  storage: Storage;
  /** The scheduler's own rule worker: rules submitted through the API are checked in another. */
  recurrences: Recurrences;
  clock: () => Date;
  /** Writes the run's one audit event, with its claim (the jobs it queues write none). */
  audit: Pick<AuditTrail, 'change'>;
  /**
   * Queues one scheduled job (JobService.startScheduled), running `alsoStore` in the job's
   * transaction; throws a DomainError when refused.
   */
  startJob(action: 'test' | 'scan', share: NasShareRecord, scheduleId: number, alsoStore: (stores: Stores) => Promise<void>): Promise<unknown>;
  /** How often storage is looked at for schedules changed on another replica. */
  pollMs?: number;
  /** How long a run's lease lasts unrenewed (`runLeaseMs`): how long a dead replica's run waits for another. */
  leaseMs?: number;
  /** Told of each run it claimed, with the occurrences it missed and why (the alerts raise or clear `schedule_missed`). */
  onRun?: (schedule: ScheduleRecord, missed: number, why: string) => void;
  /** Told of a schedule it stopped (disabled): its creator is gone or may no longer act. */
  onStopped?: (schedule: ScheduleRecord, reason: string) => void;
  /** Told of a run that ended with shares it started no job on (a refusal for that share). */
  onRunEnded?: (schedule: ScheduleRecord, run: ScheduleRunRecord) => void;
  onError?: (error: unknown) => void;
  /** Told of each run it claimed (fired or skipped) and of the occurrences it missed (`/metrics`). */
  activity?: ActivityFeed;
}

/** Most occurrences counted as missed in one go: a SECONDLY rule down for a year counts this many. */
export const maxMissedCounted = 100_000;
/** Shares read per page while a run walks a pool, a NAS or every share. */
const sharePage = 500;
/** How long a run waits at most for room when the job bounds refuse its next job. */
const roomWaitMs = 250;
/** How often a run waiting for room looks at how many of its jobs are still unfinished. */
const roomPollMs = 10;
/** A rule that could not be evaluated is tried again after this long (stored: every replica obeys it). */
export const ruleRetryMs = 60_000;
/** A schedule whose claim met a storage error is tried again after this, doubling, up to `storageRetryMaxMs`. */
export const storageRetryMs = 500;
export const storageRetryMaxMs = 5_000;
/** A run's holder renews its lease as it feeds; a run whose lease ran out is taken over (its holder died). */
export const runLeaseMs = 60_000;
/** A run waiting for room renews its lease once this fraction of it has passed without a step (three times a lease). */
const leaseRenewalsPerLease = 3;

/**
 * Lets the event loop turn once. On SQLite (a synchronous driver) queuing a job resolves
 * without ever leaving the microtask queue: a run fed without this pause held the loop for a
 * whole batch (up to the requester's bound, 32 commits, 90-200 ms on a loaded disk).
 */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A rule that could not be evaluated: what is wrong with the schedule itself. */
class RuleFailure extends Error {}
/** The run's lease was taken over by another replica: this one stops feeding it. */
class RunLost extends Error {}

/**
 * Runs schedules: sleeps until the soonest is due (or `pollMs`, for other replicas' changes),
 * claims each due run in storage (compare-and-set on its due time: across replicas a run fires
 * exactly once) together with a stored run and its one audit event, counts the occurrences
 * that passed unseen as missed (run once, not replayed), and starts the run's jobs as the
 * scheduler, within its creator's rights (docs/decisions/107-…). A run whose previous jobs are
 * still going is skipped and counted. A run of many shares is fed to the queue by ascending
 * share id as its bounds make room, off the tick; each job commits with the run's progress, so
 * a run stopped part-way is taken over where it stopped, here after a restart or by another
 * replica once its lease runs out (docs/decisions/110-…). A rule that fails backs its schedule
 * off for a minute; a storage error only for seconds (docs/decisions/109-…).
 */
export class Scheduler {
  readonly #options: Required<Pick<SchedulerOptions, 'pollMs' | 'leaseMs'>> & SchedulerOptions;
  readonly #owner = randomUUID();
  readonly #feeding = new Map<number, Promise<void>>();
  /** Schedules whose claim met a storage error: when to try again, and how many times in a row. */
  readonly #storageRetry = new Map<number, { at: number; failures: number }>();
  /** The last storage error and when: what a missed run is put down to while the scheduler ran. */
  #lastStorageError: { at: number; message: string } | undefined;
  #startedAt: number | undefined;
  /** Started on storage it alone uses: the first tick takes over every run still held (its holder is dead). */
  #reclaimHeld = false;
  #stop = new AbortController();
  #loop: Promise<void> | undefined;
  #wake: (() => void) | undefined;

  constructor(options: SchedulerOptions) {
    this.#options = { pollMs: 1_000, leaseMs: runLeaseMs, ...options };
  }

  start(): void {
    if (this.#loop) return;
    this.#stop = new AbortController();
    // SQLite behind the data dir's lock: a run held now was held by a process that died (SIGKILL,
    // power cut), so it is fed on at once, not after its lease (docs/decisions/110-…).
    this.#reclaimHeld = this.#options.storage.capabilities.exclusiveOwner;
    this.#loop = this.run();
  }

  /** A schedule changed here: look again now. */
  wake(): void {
    this.#wake?.();
  }

  /** Ends the loop; runs being fed stop feeding and let go of their run (another start resumes it). */
  async stop(): Promise<void> {
    this.#stop.abort();
    this.#wake?.();
    await this.#loop;
    this.#loop = undefined;
    await Promise.allSettled([...this.#feeding.values()]);
  }

  /** Takes over runs left unfinished, then runs every due schedule once (the loop's step; tests call it with an injected clock). */
  async tick(): Promise<void> {
    const now = this.#options.clock();
    this.#startedAt ??= now.getTime();
    await this.resumeRuns(now, this.#reclaimHeld);
    this.#reclaimHeld = false;
    const due = await this.#options.storage.schedules.due(now.toISOString(), 100);
    for (const schedule of due) {
      if (this.#stop.signal.aborted) return;
      if ((this.#storageRetry.get(schedule.id)?.at ?? 0) > now.getTime()) continue;
      try {
        await this.runDue(schedule, now);
        this.#storageRetry.delete(schedule.id);
      } catch (error) {
        await this.failed(schedule, now, error);
      }
    }
  }

  /** Resolves once every run being fed has queued its last job (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.#feeding.size > 0) await Promise.allSettled([...this.#feeding.values()]);
  }

  private async run(): Promise<void> {
    const signal = this.#stop.signal;
    while (!signal.aborted) {
      try {
        await this.tick();
      } catch (error) {
        this.noteStorageError(error);
        this.#options.onError?.(error);
      }
      await this.sleep(await this.untilNextDue().catch(() => this.#options.pollMs));
    }
  }

  private async untilNextDue(): Promise<number> {
    const next = await this.#options.storage.schedules.nextDueAt();
    const now = this.#options.clock().getTime();
    let wait = next === undefined ? this.#options.pollMs : Date.parse(next) - now;
    // What is due now but waits for a storage retry: sleep until the soonest retry, not spin.
    if (wait <= 0 && this.#storageRetry.size > 0) wait = Math.min(...[...this.#storageRetry.values()].map((retry) => retry.at)) - now;
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

  /**
   * What is wrong with the schedule (its rule) backs it off for a minute, in storage, so it
   * neither holds the due list nor is retried at every tick; anything else (storage locked or
   * unreachable) is retried in seconds.
   */
  private async failed(schedule: ScheduleRecord, now: Date, error: unknown): Promise<void> {
    this.#options.onError?.(error);
    if (error instanceof RuleFailure) {
      const retryAt = new Date(now.getTime() + ruleRetryMs).toISOString();
      try {
        await this.#options.storage.schedules.backOff(schedule.id, schedule.next_run_at!, retryAt, error.message);
        return;
      } catch (stored) {
        error = stored;
        this.#options.onError?.(stored);
      }
    }
    this.noteStorageError(error);
    const failures = (this.#storageRetry.get(schedule.id)?.failures ?? 0) + 1;
    const wait = Math.min(storageRetryMs * 2 ** (failures - 1), storageRetryMaxMs);
    this.#storageRetry.set(schedule.id, { at: now.getTime() + wait, failures });
  }

  private noteStorageError(error: unknown): void {
    this.#lastStorageError = { at: this.#options.clock().getTime(), message: error instanceof Error ? error.message : String(error) };
  }

  /** Why occurrences before `now` passed without a run: dms was down, or (while it ran) storage failed. */
  private missedBecause(dueAt: string): string {
    const started = this.#startedAt ?? Infinity;
    if (Date.parse(dueAt) < started) return 'while dms was not running';
    const failing = this.#lastStorageError;
    if (failing && failing.at >= Date.parse(dueAt)) return `while dms was running but storage failed (${failing.message})`;
    return 'while dms was running but could not start them in time';
  }

  private async runDue(schedule: ScheduleRecord, now: Date): Promise<void> {
    const { storage, recurrences } = this.#options;
    const dueAt = schedule.next_run_at!;
    const creator = await creatorOf(storage, schedule, now);
    if ('stopped' in creator) return this.stopSchedule(schedule, creator.stopped);
    let plan: { count: number; next: Date | null };
    try {
      plan = await recurrences.count(schedule.rrule, new Date(dueAt), now, maxMissedCounted);
    } catch (error) {
      if (error instanceof RecurrenceError) throw new RuleFailure(`schedule ${schedule.name}: ${error.message}`, { cause: error });
      throw error;
    }
    const skip = this.#feeding.has(schedule.id) || (await storage.jobs.countUnfinishedOfSchedule(schedule.id)) > 0;
    const lease = this.lease();
    const claimed = await this.#options.audit.change<ScheduleRunRecord | 'skipped' | undefined>(schedulerPrincipal, async (stores) => {
      const won = await stores.schedules.advance(schedule.id, {
        dueAt,
        nextRunAt: plan.next?.toISOString() ?? null,
        ranAt: now.toISOString(),
        missed: plan.count,
      });
      if (!won) return { result: undefined, audit: null };
      if (skip) {
        await stores.schedules.countSkipped(schedule.id);
        return { result: 'skipped' as const, audit: null };
      }
      const run = await stores.schedules.startRun(schedule.id, dueAt, now.toISOString(), lease);
      return { result: run, audit: { action: schedule.action, resource: auditResource('schedules', schedule.id, schedule.name), changes: null } };
    });
    if (claimed === undefined) return;
    this.#options.onRun?.(schedule, plan.count, plan.count > 0 ? this.missedBecause(dueAt) : '');
    // Told by the replica whose claim won: summed over replicas, each run counts once.
    this.#options.activity?.report({ type: 'schedule_runs', outcome: claimed === 'skipped' ? 'skipped' : 'fired', count: 1 });
    if (plan.count > 0) this.#options.activity?.report({ type: 'schedule_runs', outcome: 'missed', count: plan.count });
    if (claimed === 'skipped') return;
    this.feedInBackground(schedule, claimed, creator.principal);
  }

  /** Its creator is gone or may no longer act: the schedule is disabled, with an audit event and an alert. */
  private async stopSchedule(schedule: ScheduleRecord, reason: string): Promise<void> {
    const stopped = await this.#options.audit.change(schedulerPrincipal, async (stores) => {
      const record = await stores.schedules.update(schedule.id, { enabled: false, next_run_at: null, last_error: `stopped: ${reason}` });
      if (!record) return { result: undefined, audit: null };
      const changes = { enabled: { from: true, to: false } };
      return { result: record, audit: { action: 'update' as const, resource: auditResource('schedules', schedule.id, schedule.name), changes } };
    });
    if (stopped) this.#options.onStopped?.(stopped, reason);
  }

  /**
   * Unfinished runs nobody holds (a stop let go of them, or their holder died and its lease ran
   * out; with `heldByTheDead`, any other holder's): fed on from where they stopped.
   */
  private async resumeRuns(now: Date, heldByTheDead: boolean): Promise<void> {
    const { storage } = this.#options;
    for (;;) {
      if (this.#stop.signal.aborted) return;
      const run = await storage.schedules.takeOverRun(now.toISOString(), this.lease(), heldByTheDead);
      if (!run) return;
      const schedule = await storage.schedules.get(run.schedule_id);
      const creator = schedule && (await creatorOf(storage, schedule, now));
      if (!schedule || !creator || 'stopped' in creator || !schedule.enabled || this.#feeding.has(schedule.id)) {
        if (schedule && creator && 'stopped' in creator && schedule.enabled) await this.stopSchedule(schedule, creator.stopped);
        await storage.schedules.finishRun(run.id, this.#owner, now.toISOString());
        continue;
      }
      this.feedInBackground(schedule, run, creator.principal);
    }
  }

  private lease(): { owner: string; until: string } {
    return { owner: this.#owner, until: new Date(this.#options.clock().getTime() + this.#options.leaseMs).toISOString() };
  }

  private feedInBackground(schedule: ScheduleRecord, run: ScheduleRunRecord, principal: Principal): void {
    // One trace per run (a root: nothing asked for it but the clock); the jobs it starts continue it.
    const attributes = { 'dms.schedule.id': schedule.id, 'dms.schedule.name': schedule.name, 'dms.schedule.action': schedule.action };
    const feeding = inSpan('schedule run', { parent: ROOT_CONTEXT, attributes }, () => this.feed(schedule, run, principal))
      .catch((error: unknown) => this.#options.onError?.(error))
      .finally(() => this.#feeding.delete(schedule.id));
    this.#feeding.set(schedule.id, feeding);
  }

  /**
   * Queues the run's jobs, one share at a time, each committed with the run's progress, waiting
   * for room when the bounds refuse one, and letting the loop turn between jobs (requests,
   * workers' finishes) however fast storage answers. Stopped part-way (a stop, a storage
   * error), the run is let go of unfinished, for a later tick or another replica to take over.
   */
  private async feed(schedule: ScheduleRecord, run: ScheduleRunRecord, principal: Principal): Promise<void> {
    const { storage } = this.#options;
    const signal = this.#stop.signal;
    let done = false;
    let lost = false;
    // When the lease was last extended (the run was claimed with one just now); each step extends it.
    let leasedAt = this.#options.clock().getTime();
    try {
      for await (const { id, share } of this.targetShares(schedule, run.after_share_id)) {
        await nextTurn();
        for (;;) {
          if (signal.aborted) return;
          const stepAt = this.#options.clock().getTime();
          const leaseUntil = this.lease().until;
          if (!share || !mayActOn(principal, schedule)) {
            // A share named but gone, or one the creator may not act on: counted, not dropped.
            if (!(await storage.schedules.stepRun(run.id, this.#owner, id, 'not_started', leaseUntil))) throw new RunLost();
            leasedAt = stepAt;
            break;
          }
          try {
            await this.#options.startJob(schedule.action, share, schedule.id, async (stores) => {
              if (!(await stores.schedules.stepRun(run.id, this.#owner, share.id, 'queued', leaseUntil))) throw new RunLost();
            });
            leasedAt = stepAt;
            break;
          } catch (error) {
            if (error instanceof RunLost) throw error;
            // The bounds: wait for a worker to finish something.
            if (isDomainError(error) && (error.code === 'rate_limited' || error.code === 'unavailable')) {
              await this.waitForRoom(schedule.id, signal);
              // Renewed by itself only when no step has extended it for a while: a renewal is a
              // commit, and a run held by its bounds waits for room before nearly every job.
              const now = this.#options.clock().getTime();
              if (now - leasedAt >= this.#options.leaseMs / leaseRenewalsPerLease) {
                if (!(await storage.schedules.renewRun(run.id, this.#owner, this.lease().until))) throw new RunLost();
                leasedAt = now;
              }
              continue;
            }
            // Any other refusal (a host no longer allowed) concerns this share only: counted.
            if (!isDomainError(error)) throw error;
            this.#options.onError?.(error);
            if (!(await storage.schedules.stepRun(run.id, this.#owner, share.id, 'not_started', leaseUntil))) throw new RunLost();
            break;
          }
        }
      }
      done = true;
      await storage.schedules.finishRun(run.id, this.#owner, this.#options.clock().toISOString());
      const ended = await storage.schedules.getRun(run.id);
      if (ended) this.#options.onRunEnded?.(schedule, ended);
    } catch (error) {
      if (!(error instanceof RunLost)) throw error;
      lost = true;
    } finally {
      if (!done && !lost) await storage.schedules.releaseRun(run.id, this.#owner).catch((error: unknown) => this.#options.onError?.(error));
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

  /** The shares of a run's target past `after`, as they are now, by ascending id, a page at a time. */
  private async *targetShares(schedule: ScheduleRecord, after: number): AsyncGenerator<{ id: number; share: NasShareRecord | undefined }> {
    const { shares } = this.#options.storage;
    if (schedule.share_ids) {
      for (const id of [...new Set(schedule.share_ids)].sort((a, b) => a - b)) if (id > after) yield { id, share: await shares.get(id) };
      return;
    }
    const within =
      schedule.pool_id !== null
        ? [{ field: 'pool_id', op: 'eq' as const, values: [schedule.pool_id] }]
        : schedule.nas_id !== null
          ? [{ field: 'nas_id', op: 'eq' as const, values: [schedule.nas_id] }]
          : [];
    for (;;) {
      const query: ListQuery = {
        limit: sharePage,
        offset: 0,
        sort: [{ field: 'id', direction: 'asc', nullable: false }],
        filters: [...within, { field: 'id', op: 'gt', values: [after] }],
      };
      const page = await shares.list(query);
      for (const share of page.items) yield { id: share.id, share };
      if (page.items.length < sharePage) return;
      after = page.items.at(-1)!.id;
    }
  }
}
