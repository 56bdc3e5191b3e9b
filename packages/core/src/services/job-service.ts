import type { CoreDeps } from './core-deps.js';
import type { Principal } from '../scopes/principal.js';
import type { JobRecord, JobStore, QueueBounds } from '../ports/job-store.js';
import type { NasRecord, NasShareRecord, Stores } from '../ports/storage.js';
import { schedulerPrincipal } from '../scopes/principal.js';
import type { SettingsService } from './settings-service.js';
import { createHostPolicy, type ResolveHost } from '../security/host-policy.js';
import type { ShareDriverRegistry, ShareLocation } from '../ports/share-driver.js';
import { checkHostAllowed, type NasService } from './nas-service.js';
import { checkSharePath, type ShareService, type ShareScope } from './share-service.js';
import type { JobEngine } from '../jobs/job-engine.js';
import { isJobFinished, jobListSpec, schedulerRequester, type ActiveJobStatus, type Job, type JobKind, type JobStatus } from '../domain/job.js';
import { authorize, isAllowed } from '../scopes/scope-check.js';
import { parseListQuery, type RawQuery } from '../list-query/parse-list-query.js';
import { newestFirst } from '../list-query/newest-first.js';
import type { ListQuery } from '../list-query/list-query.js';
import { auditResource, type AuditTrail } from './audit-trail.js';
import type { AuditResource } from '../domain/audit-event.js';
import { parseInput } from '../validation/zod-details.js';
import { DomainError } from '../errors/domain-error.js';
import { nasShareCreateSchema } from '../domain/nas-share.js';
import { hasNul } from '../validation/strings-with-nul.js';
import { shareLocation } from '../jobs/share-location.js';
import type { JobShare } from '../jobs/job-payload.js';
import { nextJobChange, watchJob } from '../jobs/watch-job.js';
import { clockDeadline } from './clock-deadline.js';
import { messageFor } from '../domain/host-path-note.js';
import { testFingerprint as fingerprintTest } from '../jobs/test-fingerprint.js';

export const maxWaitSeconds = 30;

/** A scan's counts as its status shows them; the rate only while it works (a finished scan's result has none). */
function scanCounts(result: Record<string, number>): Pick<ActiveJobStatus, 'file_count' | 'file_size_sum' | 'directories' | 'entries_per_second'> {
  const { directories, entries_per_second } = result;
  return {
    file_count: result['file_count'] ?? 0,
    file_size_sum: result['file_size_sum'] ?? 0,
    ...(directories === undefined ? {} : { directories }),
    ...(entries_per_second === undefined ? {} : { entries_per_second }),
  };
}

/** A job's status as `reader` may read it: a host path in its messages for admins only (host-path-note.ts). */
export function presentJob(job: JobRecord, reader: Principal): ActiveJobStatus {
  return {
    job_id: job.id,
    status: job.status,
    progress: job.progress,
    total: job.total,
    message: messageFor(job.message, reader),
    steps: job.steps.map((step) => (step.message === undefined ? step : { ...step, message: messageFor(step.message, reader) })),
    ...(job.kind === 'share_scan' && job.result ? scanCounts(job.result) : {}),
  };
}

/** A job as GET /jobs shows it (docs/api.md#job-history); never its sealed payload or its worker. */
export function presentJobResource(job: JobRecord, reader: Principal): Job {
  const status = presentJob(job, reader);
  return {
    ...status,
    message: status.message ?? null,
    steps: status.steps ?? [],
    kind: job.kind,
    nas_share_id: job.share_id,
    nas_id: job.nas_id,
    requester: job.requester,
    created_at: job.created_at,
    started_at: job.started_at,
    finished_at: job.finished_at,
  };
}

/** Bounds count per user: a user's keys share its budget, so more keys buy no more jobs. */
function requesterOf(principal: Principal): string {
  if (principal.kind === 'user') return principal.origin?.via === 'scheduler' ? schedulerRequester : `user:${principal.userId}`;
  return principal.ownerUserId === null ? `key:${principal.keyId}` : `user:${principal.ownerUserId}`;
}

/** The name a job shows for who started it: the user's or the key's, as it is now. */
function requesterName(principal: Principal): string {
  return principal.kind === 'user' ? principal.username : principal.name;
}

/**
 * Which jobs a principal may read (GET /jobs): the jobs of shares it may see. Users see every
 * share; a principal that may show shares (a user by its role) sees every job, any other the jobs its own key tree
 * started (a job's message and steps name the hosts it reached).
 */
function visibleTo(principal: Principal): { requestedBy?: string } {
  if (jobListScope(principal) === 'all') return {};
  return { requestedBy: requesterOf(principal) };
}

/** Which jobs GET /jobs lists for a principal: `all`, or only its key tree's `own` (said in the answer's Dms-Jobs-Scope). */
export type JobListScope = 'all' | 'own';

export function jobListScope(principal: Principal): JobListScope {
  return isAllowed(principal, 'nas_shares', 'show') ? 'all' : 'own';
}

function onlyVisible(query: ListQuery, principal: Principal): ListQuery {
  const { requestedBy } = visibleTo(principal);
  return requestedBy === undefined ? query : { ...query, filters: [...query.filters, { field: 'requested_by', op: 'eq', values: [requestedBy] }] };
}

/**
 * Where a job was started, as a host addresses it: a job read elsewhere is 404. `jobId` is as
 * the query gives it (checked here, not at the edge).
 */
export type JobTarget =
  /** A test of an unsaved share, under the NAS it was started under. */
  | { jobId: string | undefined; nasRef: string }
  /** A saved share's test or scan, by the share and the job's kind. */
  | { jobId: string | undefined; kind: JobKind; scope: ShareScope; shareRef: string };

function parseWait(wait: string | undefined): number {
  if (wait === undefined || wait === '') return 0;
  if (!/^\d{1,3}$/.test(wait) || Number(wait) > maxWaitSeconds) {
    throw DomainError.badRequest('wait', `wait must be an integer number of seconds from 0 to ${maxWaitSeconds}`);
  }
  return Number(wait);
}

/** A job id as a request gives it: present (400 `blank`) and without NUL (400). */
function checkJobId(jobId: string | undefined): string {
  if (!jobId) throw new DomainError('bad_request', 'job_id is required', { details: { job_id: [{ error: 'blank' }] } });
  // A bad parameter (docs/api.md#status-codes), and PostgreSQL cannot compare text holding NUL.
  if (hasNul(jobId)) throw DomainError.badRequest('job_id', 'job_id must not contain NUL characters (%00)');
  return jobId;
}

/** A job id as a path gives it: like every path id, one no job can have (a NUL) is 404, not 400 (finding 20.9). */
function pathJobId(jobId: string): string {
  if (hasNul(jobId)) throw DomainError.notFound('job_id', jobId.replace(/\0/g, '%00'));
  return jobId;
}

/** Share tests (`PUT` and `GET …/nas_shares/-/test`) and the test/scan extensions of a saved share. */
export class JobService {
  constructor(
    private readonly deps: CoreDeps,
    private readonly engine: JobEngine,
    private readonly drivers: ShareDriverRegistry,
    private readonly nas: NasService,
    private readonly shares: ShareService,
    private readonly settings: SettingsService,
    private readonly audit: AuditTrail,
    private readonly resolveHost?: ResolveHost,
  ) {}

  /** Jobs by status, for the SNMP agent's gauges. */
  countByStatus(): Promise<Record<JobStatus, number>> {
    return this.deps.storage.jobs.countByStatus();
  }

  /** Queued and working jobs by kind, for `/metrics` (whose route admits admins only). */
  countUnfinishedByKind(): ReturnType<JobStore['countUnfinishedByKind']> {
    return this.deps.storage.jobs.countUnfinishedByKind();
  }

  /** Whether `list` answers every job or only the principal's own (docs/decisions/140-jobs-scope-header.md). */
  listScope(principal: Principal): JobListScope {
    return jobListScope(principal);
  }

  /**
   * GET /jobs: the jobs the principal may read (`visibleTo`), with the one list contract,
   * newest first unless `sort_by` says otherwise; `count` exact unless `countIsLowerBound`
   * (docs/decisions/186-history-list-counts.md), which is not part of the body.
   */
  async list(principal: Principal, raw: RawQuery): Promise<{ count: number; jobs: Job[]; countIsLowerBound: boolean }> {
    authorize(principal, 'jobs', 'index');
    const query = onlyVisible(newestFirst(parseListQuery(raw, jobListSpec), 'created_at'), principal);
    const page = await this.deps.storage.jobs.list(query);
    return { count: page.count, jobs: page.items.map((job) => presentJobResource(job, principal)), countIsLowerBound: page.countIsLowerBound === true };
  }

  /**
   * GET /jobs/{job_id}: one job the principal may read (404 otherwise, as for a job that does
   * not exist). With `wait` (seconds, 0–30), a long-poll that answers at the job's first
   * change of any kind, progress included, or with its state when the time is up.
   */
  async show(principal: Principal, jobId: string, wait?: string): Promise<Job> {
    authorize(principal, 'jobs', 'show');
    const waitSeconds = parseWait(wait);
    const read = this.resourceReader(principal, pathJobId(jobId));
    const first = await read();
    if (waitSeconds === 0 || isJobFinished(first)) return first;
    return this.nextChange(first.job_id, first, read, waitSeconds);
  }

  /** A long-poll's answer (`nextJobChange`) within `waitSeconds` of the injected clock. */
  private async nextChange<S extends ActiveJobStatus>(jobId: string, first: S, read: () => Promise<S>, waitSeconds: number): Promise<S> {
    const deadline = clockDeadline(this.deps.clock, waitSeconds * 1000);
    try {
      return await nextJobChange(jobId, first, { read, signals: this.engine.signals, draining: this.engine.draining }, deadline.signal);
    } finally {
      deadline.cancel();
    }
  }

  /**
   * Every change of a job the principal may read (status and progress), from its state now
   * until it finishes, `signal` is aborted or the service begins to stop: the console's live
   * view and `dms jobs`' follow. Checked and read once before it resolves (404, 403).
   */
  async follow(principal: Principal, jobId: string, options: { signal?: AbortSignal } = {}): Promise<AsyncGenerator<Job, void>> {
    authorize(principal, 'jobs', 'show');
    const read = this.resourceReader(principal, pathJobId(jobId));
    const first = await read();
    return watchJob(first.job_id, first, { read, signals: this.engine.signals, draining: this.engine.draining }, options.signal);
  }

  private resourceReader(principal: Principal, jobId: string): () => Promise<Job> {
    const { requestedBy } = visibleTo(principal);
    return async () => {
      const job = await this.deps.storage.jobs.get(jobId);
      if (!job || (requestedBy !== undefined && job.requested_by !== requestedBy)) throw DomainError.notFound('job_id', jobId);
      return presentJobResource(job, principal);
    };
  }

  /** Job requests refused by the queue bounds since start, by bound. */
  rejections(): Readonly<Record<'per_principal' | 'overall', number>> {
    return this.engine.rejections;
  }

  /**
   * What every job request passes before it is queued: the target host within
   * `share_test_allowed_hosts`, and the queue bounds of the requester and of the service.
   */
  private async admit(principal: Principal, nas: NasRecord): Promise<QueueBounds & { requestedBy: string; requester: string }> {
    const settings = await this.settings.current();
    // Early, in the requester's words; the driver checks again where it connects (finding 20.4).
    await checkHostAllowed(createHostPolicy(settings.share_test_allowed_hosts, this.resolveHost), nas.type, nas.host);
    return {
      requestedBy: requesterOf(principal),
      requester: requesterName(principal),
      perRequester: settings.job_queue_max_per_principal,
      total: settings.job_queue_max_total,
    };
  }

  /** PUT /nas/{nas_id}/nas_shares/-/test: validates the body like a create, queues a test. */
  async testUnsaved(principal: Principal, nasRef: string, body: unknown): Promise<ActiveJobStatus> {
    authorize(principal, 'nas_shares', 'test');
    const input = parseInput(nasShareCreateSchema, body);
    const nas = await this.nas.resolve(nasRef);
    await checkSharePath(this.drivers, nas, input.path);
    const connection = { path: input.path, options: input.options || null, username: input.username ?? null };
    const password = input.password ?? null;
    const target = { location: { type: nas.type, host: nas.host, ...connection, password }, label: input.name };
    const resource = auditResource('nas_shares', null, input.name);
    // The share saved from this test, by the same principal, takes it as its first (ShareService.create).
    const testFingerprint = fingerprintTest(this.deps.secrets, principal, nas, { ...connection, password });
    return this.queue(principal, 'share_test', nas, { shareId: null, resource, testFingerprint }, target, shareLocation(nas, connection, password));
  }

  /** PUT /nas_shares/{id}/test: re-tests a saved share with its stored credentials. */
  async testSaved(principal: Principal, scope: ShareScope, shareRef: string): Promise<ActiveJobStatus> {
    authorize(principal, 'nas_shares', 'test');
    const share = await this.shares.resolve(scope, shareRef);
    const nas = await this.nas.ofShare(share);
    // The stored password is opened only when the job runs; the steps do not depend on it.
    const resource = auditResource('nas_shares', share.id, share.name);
    return this.queue(principal, 'share_test', nas, { shareId: share.id, resource }, { shareId: share.id }, shareLocation(nas, share, null));
  }

  async scan(principal: Principal, scope: ShareScope, shareRef: string): Promise<ActiveJobStatus> {
    authorize(principal, 'nas_shares', 'scan');
    const share = await this.shares.resolve(scope, shareRef);
    const resource = auditResource('nas_shares', share.id, share.name);
    return this.queue(principal, 'share_scan', await this.nas.ofShare(share), { shareId: share.id, resource }, { shareId: share.id });
  }

  /**
   * A test or scan of a saved share for a schedule's run, as the scheduler: under its own
   * bounds (a refusal is thrown, as for anyone), listed with requester `scheduler`. No audit
   * event of its own: the run has one (docs/decisions/107-…). `alsoStore` runs in the job's
   * transaction (the run's progress: the job and the share marked done commit together).
   */
  async startScheduled(
    action: 'test' | 'scan',
    share: NasShareRecord,
    scheduleId: number,
    alsoStore?: (stores: Stores) => Promise<void>,
  ): Promise<ActiveJobStatus> {
    const nas = await this.nas.ofShare(share);
    const subject = { shareId: share.id, resource: auditResource('nas_shares', share.id, share.name), scheduleId, alsoStore };
    if (action === 'scan') return this.queue(schedulerPrincipal, 'share_scan', nas, subject, { shareId: share.id });
    return this.queue(schedulerPrincipal, 'share_test', nas, subject, { shareId: share.id }, shareLocation(nas, share, null));
  }

  /**
   * Queues a job after its admission, with its audit event in the same transaction. A test's
   * `total` is counted here, once: the steps its driver runs for `location`; the runner
   * reports progress against it. A scan's is 0 until it has counted.
   */
  private async queue(
    principal: Principal,
    kind: JobKind,
    nas: NasRecord,
    subject: {
      shareId: number | null;
      resource: AuditResource;
      scheduleId?: number;
      testFingerprint?: string;
      alsoStore?: (stores: Stores) => Promise<void> | undefined;
    },
    target: JobShare,
    location?: ShareLocation,
  ): Promise<ActiveJobStatus> {
    const total = kind === 'share_test' && location ? this.drivers.forType(nas.type).testSteps(location).length : 0;
    const bounds = await this.admit(principal, nas);
    const scheduled = subject.scheduleId !== undefined;
    const job = await this.audit.change(principal, async (stores) => {
      const stored = await this.engine.store(
        stores.jobs,
        kind,
        target,
        {
          nasId: nas.id,
          shareId: subject.shareId,
          total,
          ...(subject.scheduleId === undefined ? {} : { scheduleId: subject.scheduleId }),
          ...(subject.testFingerprint === undefined ? {} : { testFingerprint: subject.testFingerprint }),
        },
        bounds,
      );
      await subject.alsoStore?.(stores);
      return {
        result: stored,
        audit: scheduled ? null : { action: kind === 'share_test' ? ('test' as const) : ('scan' as const), resource: subject.resource, changes: null },
      };
    });
    this.engine.signals.queued();
    return presentJob(job, principal);
  }

  /**
   * A job's status (GET …/test?job_id=, …/scan?job_id=). With `wait` (seconds, as the query
   * gives it, checked here), a long-poll as `show`'s: answers at the job's first change of any
   * kind, progress included, or with its latest state when the time is up or the service begins
   * to stop. 202 or 200 is the host's, by whether the answer is finished.
   */
  async status(principal: Principal, target: JobTarget, wait?: string): Promise<ActiveJobStatus> {
    const jobId = this.mayRead(principal, target);
    const waitSeconds = parseWait(wait);
    const read = await this.reader(principal, target, jobId);
    const first = await read();
    if (waitSeconds === 0 || isJobFinished(first)) return first;
    return this.nextChange(jobId, first, read, waitSeconds);
  }

  /**
   * Every change of a job (status and progress), from its state now until it finishes, `signal`
   * is aborted or the service begins to stop. The rights and the job are checked, and its
   * first status read, before this resolves: an unknown job or a missing right fails the call.
   */
  async watch(principal: Principal, target: JobTarget, options: { signal?: AbortSignal } = {}): Promise<AsyncGenerator<ActiveJobStatus, void>> {
    const jobId = this.mayRead(principal, target);
    const read = await this.reader(principal, target, jobId);
    return watchJob(jobId, await read(), { read, signals: this.engine.signals, draining: this.engine.draining }, options.signal);
  }

  /** The right to read a job where it was started (403), then its id (400). */
  private mayRead(principal: Principal, target: JobTarget): string {
    authorize(principal, 'nas_shares', 'kind' in target && target.kind === 'share_scan' ? 'scan' : 'test');
    return checkJobId(target.jobId);
  }

  /** Reads the job as presented; a job started under another NAS, share or kind is 404, as one that does not exist. */
  private async reader(principal: Principal, target: JobTarget, jobId: string): Promise<() => Promise<ActiveJobStatus>> {
    let belongs: (job: JobRecord) => boolean;
    if ('nasRef' in target) {
      const nas = await this.nas.resolve(target.nasRef);
      belongs = (job) => job.kind === 'share_test' && job.nas_id === nas.id;
    } else {
      const { kind } = target;
      const share = await this.shares.resolve(target.scope, target.shareRef);
      belongs = (job) => job.kind === kind && job.share_id === share.id;
    }
    return async () => {
      const job = await this.deps.storage.jobs.get(jobId);
      if (!job || !belongs(job)) throw DomainError.notFound('job_id', jobId);
      return presentJob(job, principal);
    };
  }
}
