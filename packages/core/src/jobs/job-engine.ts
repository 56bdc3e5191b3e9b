import type { Storage } from '../ports/storage.js';
import { jobDefaults } from '../defaults.js';
import type { JobOutcome, JobProgress, JobRecord, JobStore, QueueBounds } from '../ports/job-store.js';
import { DomainError } from '../errors/domain-error.js';
import type { AllowedHosts, ShareDriverRegistry } from '../ports/share-driver.js';
import type { HostPolicy } from '../security/host-policy.js';
import type { EventBus } from '../ports/event-bus.js';
import type { ActivityFeed } from '../ports/activity-feed.js';
import type { SecretBox } from '../ports/secret-box.js';
import { jobKindWords, type FinishedJobStatus, type JobKind } from '../domain/job.js';
import { makeEvent, type DmsEventName } from '../domain/events.js';
import { JobSignals } from './job-signals.js';
import { runJob, type RunResult } from './job-runner.js';
import type { ScanAnalytics } from '../domain/scan-analytics.js';
import type { JobFailure } from './job-messages.js';
import { ProgressSaver } from './progress-saver.js';
import { openSealedJob, sealJobPayload, type JobShare } from './job-payload.js';
import { contextOf, failSpan, inSpan, type Span, type TraceCarrier } from '../tracing/spans.js';
import { untilStored, type UntilStoredOptions } from './until-stored.js';
import { storeShareFindings } from './share-findings.js';
import { withoutHostPath } from '../domain/host-path-note.js';

export interface JobEngineOptions {
  storage: Storage;
  secrets: SecretBox;
  drivers: ShareDriverRegistry;
  /**
   * `share_test_allowed_hosts` as it is now: read by a running job at the moment its driver
   * connects, so a NAS moved or a setting narrowed after the job was queued is obeyed.
   */
  hostPolicy: () => Promise<HostPolicy>;
  events: EventBus;
  clock: () => Date;
  newId: () => string;
  /** Workers of this process (DMS_JOB_CONCURRENCY, 4 by default). */
  concurrency?: number;
  driverTimeoutMs?: number;
  /** How often a running job's heartbeat is saved (2 s). */
  heartbeatMs?: number;
  /**
   * A working job whose heartbeat is older is taken as crashed and failed "interrupted" by
   * any live replica (3 heartbeats by default: a dead replica's jobs end within ~8 s).
   */
  staleAfterMs?: number;
  /** Told when the overall queue bound refused a job (the alerts raise `job_queue_saturated`). */
  onQueueFull?: (total: number) => void;
  /** Purges what is past its retention (finished jobs, audit events), once a minute. */
  purgeExpired?: () => Promise<void>;
  /** How often an idle worker looks for jobs enqueued by another replica. */
  pollMs?: number;
  onError?: (error: unknown) => void;
  /** Each job that ended failed, interrupted ones included (the service logs them at warn). */
  onJobFailed?: (failure: JobFailure) => void;
  /** Told of each job this process ran to its end and of a scan's entries as it reaches them (`/metrics`). */
  activity?: ActivityFeed;
}

/** What a job ran on, and its step count. */
export interface JobRefs {
  nasId: number | null;
  shareId: number | null;
  total: number;
  /** The schedule whose run starts it. */
  scheduleId?: number;
  /** A test of an unsaved share: who tested what (test-fingerprint.ts), for the share saved from it. */
  testFingerprint?: string;
}

/** The queue bounds a job is admitted under, and who asked for it (for bounds, and by name). */
export type JobBounds = QueueBounds & { requestedBy: string; requester: string };

type Hooks = 'onError' | 'onJobFailed' | 'purgeExpired' | 'onQueueFull' | 'activity';

const eventNames: Record<JobKind, Record<FinishedJobStatus, DmsEventName>> = {
  share_test: { completed: 'share_test_completed', failed: 'share_test_failed' },
  share_scan: { completed: 'share_scan_completed', failed: 'share_scan_failed' },
};

const purgeEveryMs = 60_000;
/** Longest pause between two tries of an engine write that storage refused (`untilStored`). */
const writeRetryMaxPauseMs = 5_000;
/** A finish refused this many times for another reason than unavailability stores a failure saying why. */
const finishRefusalsBeforeFailing = 3;

/** What a job whose outcome storage would not take ends with: failed, saying why, with its counts only. */
function unstorableOutcome(finished: JobOutcome, error: unknown): JobOutcome {
  const why = error instanceof Error ? error.message : String(error);
  return {
    status: 'failed',
    message: `internal error: the job's outcome could not be stored (${why})`,
    progress: finished.progress,
    total: finished.total,
    steps: [],
  };
}
/** Progress of a running job is saved at most this often (ProgressSaver). */
const progressIntervalMs = 250;

/**
 * Durable job engine: jobs live in storage, workers claim them atomically, heartbeats
 * mark them alive, and a start after a crash fails what was left working ("interrupted").
 */
export class JobEngine {
  /** Also carried over the event bus, so a long-poll wakes on any replica sharing it. */
  readonly signals: JobSignals;
  /** Jobs refused by the queue bounds since start, for /metrics. */
  readonly rejections = { per_principal: 0, overall: 0 };
  readonly #options: Required<Omit<JobEngineOptions, Hooks>> & Pick<JobEngineOptions, Hooks>;
  readonly #workerId: string;
  /** Aborted when the service begins to stop: no more claims, and long-polls answer at once. */
  readonly #draining = new AbortController();
  /** Aborted when running jobs must end: their drivers are aborted and the jobs requeued. */
  readonly #stopping = new AbortController();
  readonly #workers: Promise<void>[] = [];
  /** Jobs this process gave back to the queue when it stopped. */
  readonly #requeued = new Set<string>();
  readonly #allowedHosts: AllowedHosts;
  #housekeeping: NodeJS.Timeout | undefined;
  #lastPurge = Number.NEGATIVE_INFINITY;
  /** Started as the one process of its database (recoverEveryWorking): no other worker to outlive. */
  #exclusiveOwner = false;

  constructor(options: JobEngineOptions) {
    this.#options = {
      concurrency: jobDefaults.concurrency,
      driverTimeoutMs: jobDefaults.driverTimeoutMs,
      heartbeatMs: jobDefaults.heartbeatMs,
      pollMs: jobDefaults.pollMs,
      ...options,
      staleAfterMs: options.staleAfterMs ?? jobDefaults.staleAfterHeartbeats * (options.heartbeatMs ?? jobDefaults.heartbeatMs),
    };
    this.#workerId = `worker-${options.newId()}`;
    this.signals = new JobSignals(options.events, options.clock);
    this.#allowedHosts = { allows: async (host, addresses) => (await options.hostPolicy()).allowsResolved(host, addresses) };
  }

  /** This process's mark on the jobs it claims (`worker_id`): which replica ran a job. */
  get workerId(): string {
    return this.#workerId;
  }

  /** Where worker and housekeeping errors go (the server logs them). */
  setErrorHandler(handler: (error: unknown) => void): void {
    this.#options.onError = handler;
  }

  /** Where failed jobs are told (openDms logs them at warn with the job id). */
  setFailureHandler(handler: (failure: JobFailure) => void): void {
    this.#options.onJobFailed = handler;
  }

  /** A throwing handler must not fail the job's bookkeeping: its error goes to onError. */
  private reportFailure(failure: JobFailure): void {
    try {
      this.#options.onJobFailed?.(failure);
    } catch (error) {
      this.#options.onError?.(error);
    }
  }

  private now(): string {
    return this.#options.clock().toISOString();
  }

  /**
   * Stores a job and wakes a worker; the job survives a restart from here on. With bounds,
   * a requester over its share of unfinished jobs gets 429 and a full queue 503 (docs/decisions/028-job-bounds-and-fair-claims.md).
   */
  async enqueue(kind: JobKind, target: JobShare, refs: JobRefs, bounds?: JobBounds): Promise<JobRecord> {
    const job = await this.store(this.#options.storage.jobs, kind, target, refs, bounds);
    this.signals.queued();
    return job;
  }

  /**
   * `enqueue` through `jobs`, a store of a transaction the caller commits (the job with its
   * audit event): no worker is woken, the caller calls `signals.queued()` once it committed.
   */
  store(jobs: JobStore, kind: JobKind, target: JobShare, refs: JobRefs, bounds?: JobBounds): Promise<JobRecord> {
    const insert = {
      id: this.#options.newId(),
      kind,
      nas_id: refs.nasId,
      share_id: refs.shareId,
      total: refs.total,
      payload_enc: sealJobPayload(this.#options.secrets, kind, target),
      created_at: this.now(),
      ...(refs.scheduleId === undefined ? {} : { schedule_id: refs.scheduleId }),
      ...(refs.testFingerprint === undefined ? {} : { test_fingerprint: refs.testFingerprint }),
      ...(bounds ? { requested_by: bounds.requestedBy, requester: bounds.requester } : {}),
    };
    return jobs.enqueue(insert, bounds).then(async (job) => job ?? Promise.reject(await this.refusal(jobs, bounds!)));
  }

  private async refusal(jobs: JobStore, bounds: JobBounds): Promise<DomainError> {
    // About when a worker frees up: each network step of a job is bounded by the driver timeout.
    const retryAfter = Math.max(1, Math.ceil(this.#options.driverTimeoutMs / 1000));
    if ((await jobs.countUnfinished(bounds.requestedBy)) >= bounds.perRequester) {
      this.rejections.per_principal += 1;
      return new DomainError('rate_limited', `too many unfinished jobs for this credential (at most ${bounds.perRequester}); retry after ${retryAfter} s`, {
        retryAfter,
        details: { jobs: [{ error: 'less_than_or_equal_to', count: bounds.perRequester }] },
      });
    }
    this.rejections.overall += 1;
    this.#options.onQueueFull?.(bounds.total);
    return new DomainError('unavailable', `the job queue is full (at most ${bounds.total} unfinished jobs); retry after ${retryAfter} s`, {
      retryAfter,
      details: { jobs: [{ error: 'less_than_or_equal_to', count: bounds.total }] },
    });
  }

  /**
   * Fails jobs a crash left working. With `everyWorking` (one process over SQLite) every
   * working job is stale; replicas sharing PostgreSQL only take those whose heartbeat stopped.
   */
  async recover(everyWorking: boolean): Promise<JobRecord[]> {
    const { storage, clock, staleAfterMs, events } = this.#options;
    const staleBefore = everyWorking ? new Date(clock().getTime() + 1).toISOString() : new Date(clock().getTime() - staleAfterMs).toISOString();
    const message = 'interrupted';
    const failed = await storage.jobs.failStale(staleBefore, message, this.now());
    for (const job of failed) {
      this.signals.changed(job.id);
      this.reportFailure({ jobId: job.id, kind: job.kind, nasId: job.nas_id, shareId: job.share_id, shareName: '', message });
      events.publish(makeEvent('job_interrupted', `job ${job.id} (${job.kind}) was interrupted by a restart`, clock(), { type: 'job', id: job.id }));
    }
    return failed;
  }

  start(options: { recoverEveryWorking: boolean } = { recoverEveryWorking: this.#options.storage.capabilities.exclusiveOwner }): Promise<void> {
    this.#exclusiveOwner = options.recoverEveryWorking;
    const ready = this.recover(options.recoverEveryWorking).then(() => undefined);
    for (let i = 0; i < this.#options.concurrency; i++) this.#workers.push(ready.then(() => this.work()));
    // Stale jobs are looked for every heartbeat (one indexed UPDATE), finished ones purged each minute.
    this.#housekeeping = setInterval(() => void this.housekeep(), Math.min(this.#options.heartbeatMs, this.#options.staleAfterMs));
    this.#housekeeping.unref();
    return ready;
  }

  /**
   * Aborted once the service has begun to stop (`drain`): a long-poll answers with the status
   * as it is then instead of waiting for a change this process will no longer make.
   */
  get draining(): AbortSignal {
    return this.#draining.signal;
  }

  /**
   * The first step of a graceful shutdown (issue 21 item 4): no job is claimed from here on,
   * idle workers end, and long-polls are answered at once. Running jobs go on until `stop`.
   */
  drain(): void {
    if (this.#draining.signal.aborted) return;
    this.#draining.abort();
    clearInterval(this.#housekeeping);
  }

  /**
   * Drains, lets running jobs finish for up to `graceMs`, then aborts their drivers and puts
   * them back in the queue (re-running a share test or a scan is safe: neither changes the
   * share), so the next start or another replica runs them (`requeued` lists them). A later
   * call with a shorter grace ends the jobs sooner.
   */
  async stop(options: { graceMs?: number } = {}): Promise<void> {
    this.drain();
    const settled = Promise.allSettled(this.#workers);
    const graceMs = options.graceMs ?? 0;
    if (graceMs > 0 && !this.#stopping.signal.aborted) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([settled, new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
    }
    this.#stopping.abort();
    await settled;
  }

  /** The jobs this process gave back to the queue when it stopped. */
  get requeued(): readonly string[] {
    return [...this.#requeued];
  }

  /** Gives a job back to the queue; where storage cannot take it, a restart's recovery ends it. */
  private async requeue(job: JobRecord): Promise<void> {
    try {
      if (await this.#options.storage.jobs.requeue(job.id, this.#workerId)) this.#requeued.add(job.id);
      this.signals.changed(job.id);
    } catch (error) {
      this.#options.onError?.(error);
    }
  }

  /** The retention purge, now: what housekeeping runs each minute (a test drives it with its clock). */
  async purgeExpired(): Promise<void> {
    await this.#options.purgeExpired?.();
  }

  private async housekeep(): Promise<void> {
    const { clock, purgeExpired } = this.#options;
    try {
      // An exclusive owner runs every working job itself: a stale heartbeat there means only
      // that storage could not take it for a while (another process's lock), not a dead worker.
      if (!this.#exclusiveOwner) await this.recover(false);
      const now = clock().getTime();
      if (now - this.#lastPurge < purgeEveryMs) return;
      this.#lastPurge = now;
      await purgeExpired?.();
    } catch (error) {
      this.#options.onError?.(error);
    }
  }

  private async work(): Promise<void> {
    const signal = this.#draining.signal;
    while (!signal.aborted) {
      try {
        let job = await this.#options.storage.jobs.claim(this.#workerId, this.now());
        if (job) {
          // While there is work, each finish claims the next job in the same statement.
          while (job) {
            // Claimed by a statement that was under way when the drain began: not started.
            if (signal.aborted) {
              await this.requeue(job);
              break;
            }
            this.signals.changed(job.id);
            job = await this.execute(job);
          }
        } else {
          await this.signals.next('queued', this.#options.pollMs, signal);
        }
      } catch (error) {
        this.#options.onError?.(error);
        await this.signals.next('queued', this.#options.pollMs, signal);
      }
    }
  }

  /**
   * What a finished job found out about its saved share, stored before the job's finish
   * (storeShareFindings). A failure here is reported; the job's own outcome is stored all the same.
   */
  private async recordFindings(job: JobRecord, outcome: JobOutcome, analytics: ScanAnalytics | undefined): Promise<void> {
    if (job.share_id === null) return;
    const finished = {
      kind: job.kind,
      shareId: job.share_id,
      outcome,
      analytics,
      at: this.now(),
      durationMs: Math.round(this.secondsSinceStart(job) * 1000),
      now: this.#options.clock(),
    };
    await storeShareFindings(this.#options.storage, finished, this.retryOptions(), (error) => this.#options.onError?.(error));
  }

  /** How long the job has run, from its claim, by the engine's clock (0 for a job never started). */
  private secondsSinceStart(job: JobRecord): number {
    const now = this.#options.clock().getTime();
    return Math.max(0, now - (job.started_at === null ? now : Date.parse(job.started_at))) / 1000;
  }

  /**
   * Runs a claimed job to its end; answers the next one, claimed with its finish unless stopping.
   * Traced, the job is a span continuing the trace of the request or schedule run that queued it
   * (carried in its payload, so on any replica), with a child per step; its log lines carry it.
   */
  private execute(job: JobRecord): Promise<JobRecord | undefined> {
    const attributes = { 'dms.job.id': job.id, 'dms.job.kind': job.kind, ...(job.share_id === null ? {} : { 'dms.share.id': job.share_id }) };
    return inSpan(job.kind, { parent: contextOf(this.traceOf(job)), attributes }, (span) => this.executeIn(job, span));
  }

  /** The trace a job continues; none when its payload cannot be read (the run says why). */
  private traceOf(job: JobRecord): TraceCarrier | undefined {
    try {
      return job.payload_enc === null ? undefined : openSealedJob(this.#options.secrets, job.payload_enc).trace;
    } catch {
      return undefined;
    }
  }

  private async executeIn(job: JobRecord, span: Span): Promise<JobRecord | undefined> {
    const { storage, clock } = this.#options;
    let latest: JobProgress = { progress: 0, total: job.total, steps: [] };
    const progress = new ProgressSaver(latest, {
      write: async (snapshot) => {
        await storage.jobs.progress(job.id, this.#workerId, snapshot, this.now());
        this.signals.changed(job.id);
      },
      intervalMs: progressIntervalMs,
      now: () => clock().getTime(),
      onError: (error) => this.#options.onError?.(error),
    });
    const heartbeat = setInterval(() => progress.save(), this.#options.heartbeatMs);
    try {
      const { outcome, subject, analytics } = await runJob(job, {
        storage,
        secrets: this.#options.secrets,
        drivers: this.#options.drivers,
        driverTimeoutMs: this.#options.driverTimeoutMs,
        allowedHosts: this.#allowedHosts,
        signal: this.#stopping.signal,
        clock,
        span,
        report: (snapshot) => {
          latest = snapshot;
          progress.report(snapshot);
        },
        onScanEntries: (count) => this.#options.activity?.report({ type: 'scan_entries', count }),
      }).catch((error: unknown): RunResult => ({
        outcome: { status: 'failed' as const, message: `internal error: ${error instanceof Error ? error.message : String(error)}`, ...latest },
        subject: { shareId: job.share_id, name: '' },
      }));
      clearInterval(heartbeat);
      await progress.close();
      // A job cut off by the shutdown runs again elsewhere; one that got to its end keeps it.
      if (this.#stopping.signal.aborted && outcome.status === 'failed') {
        await this.requeue(job);
        return undefined;
      }
      // What the job found is stored before the job is seen to end: whoever sees it finished
      // (a follower, a replica, a snapshot) sees the share's health, counts and capacity with it.
      span.setAttribute('dms.job.outcome', outcome.status);
      if (outcome.status === 'failed') failSpan(span, outcome.message ?? 'failed');
      await this.recordFindings(job, outcome, analytics);
      const { next, stored } = await this.storeFinish(job, outcome);
      // The next job is already this worker's: nothing in the telling may keep it from running.
      try {
        this.announceFinished(job, stored, subject);
        this.#options.activity?.report({
          type: 'job_finished',
          kind: job.kind,
          outcome: stored.status,
          seconds: this.secondsSinceStart(job),
          steps: stored.steps,
        });
      } catch (error) {
        this.#options.onError?.(error);
      }
      return next;
    } finally {
      clearInterval(heartbeat);
      await progress.close();
    }
  }

  /**
   * Stores a job's outcome, until storage takes it (`untilStored`): storage that cannot take it
   * now (a full disk, another process holding SQLite's write lock, a database restarting) gets
   * it once it can, for the outcome is known and the job must not stay `working` or end
   * "interrupted" for it. A retry is a plain finish, which applies once (only to a job still
   * working for this worker) and claims nothing, so nothing is claimed twice. An outcome refused
   * for another reason (`finishRefusalsBeforeFailing` times) is replaced by a failure that says
   * why, which carries nothing of the outcome but its counts.
   */
  private async storeFinish(job: JobRecord, finished: JobOutcome): Promise<{ next: JobRecord | undefined; stored: JobOutcome }> {
    const { storage } = this.#options;
    // Draining: the finish claims nothing.
    let claimNext = !this.#draining.signal.aborted;
    let refused: unknown;
    return untilStored(
      async (refusals) => {
        const stored = refusals < finishRefusalsBeforeFailing ? finished : unstorableOutcome(finished, refused);
        if (claimNext) {
          claimNext = false;
          return { next: await storage.jobs.finishAndClaim(job.id, this.#workerId, stored, this.now()), stored };
        }
        await storage.jobs.finish(job.id, this.#workerId, stored, this.now());
        return { next: undefined, stored };
      },
      this.retryOptions((error) => (refused = error)),
    );
  }

  /** How engine writes are tried again (`untilStored`); `seen` is told each refusal before onError. */
  private retryOptions(seen: (error: unknown) => void = () => {}): UntilStoredOptions {
    return {
      firstPauseMs: this.#options.pollMs,
      maxPauseMs: writeRetryMaxPauseMs,
      stopping: this.#stopping.signal,
      onError: (error) => {
        seen(error);
        this.#options.onError?.(error);
      },
    };
  }

  /** Wakes the job's waiters, logs a failure and publishes the job's event. */
  private announceFinished(job: JobRecord, finished: JobOutcome, subject: RunResult['subject']): void {
    const { clock, events } = this.#options;
    this.signals.changed(job.id);
    if (finished.status === 'failed') {
      const message = finished.message ?? 'failed';
      this.reportFailure({ jobId: job.id, kind: job.kind, nasId: job.nas_id, shareId: subject.shareId, shareName: subject.name, message });
    }
    const name = eventNames[job.kind][finished.status];
    const what = jobKindWords[job.kind];
    const event = makeEvent(
      name,
      finished.status === 'completed'
        ? `${what} of '${subject.name}' completed`
        : `${what} of '${subject.name}' failed: ${withoutHostPath(finished.message ?? 'failed')}`,
      clock(),
      {
        type: 'nas_share',
        ...(subject.shareId === null ? {} : { id: subject.shareId }),
        name: subject.name,
      },
    );
    events.publish({ ...event, job: { id: job.id, schedule_id: job.schedule_id } });
  }
}
