import type { CoreDeps } from './core-deps.js';
import type { Principal } from '../scopes/principal.js';
import type { JobRecord, QueueBounds } from '../ports/job-store.js';
import type { NasRecord, NasShareRecord } from '../ports/storage.js';
import type { SettingsService } from './settings-service.js';
import { createHostPolicy, type ResolveHost } from '../security/host-policy.js';
import type { ShareDriverRegistry } from '../ports/share-driver.js';
import { checkHostAllowed, type NasService } from './nas-service.js';
import { checkSharePath, type ShareService, type ShareScope } from './share-service.js';
import type { JobEngine } from '../jobs/job-engine.js';
import type { ActiveJobStatus, JobKind, JobStatus } from '../domain/job.js';
import { authorize } from '../scopes/scope-check.js';
import { parseInput } from '../errors/zod-details.js';
import { DomainError } from '../errors/domain-error.js';
import { nasShareCreateSchema, parseShareOptions } from '../domain/nas-share.js';
import { hasNul } from '../domain/common.js';

export const maxWaitSeconds = 30;
export const maxRecentJobs = 100;

/** A job as the console's overview lists it: its status and what it ran on. */
export type RecentJob = ActiveJobStatus & Pick<JobRecord, 'kind' | 'nas_id' | 'share_id' | 'created_at' | 'finished_at'>;

export function presentJob(job: JobRecord): ActiveJobStatus {
  return {
    job_id: job.id,
    status: job.status,
    progress: job.progress,
    total: job.total,
    message: job.message,
    steps: job.steps,
    ...(job.kind === 'share_scan' && job.result ? { file_count: job.result['file_count'] ?? 0, file_size_sum: job.result['file_size_sum'] ?? 0 } : {}),
  };
}

/** Bounds count per user: a user's keys share its budget, so more keys buy no more jobs. */
function requesterOf(principal: Principal): string {
  if (principal.kind === 'user') return `user:${principal.userId}`;
  return principal.ownerUserId === null ? `key:${principal.keyId}` : `user:${principal.ownerUserId}`;
}

/** `job_id` and `wait` as the query gives them; both are checked here, not at the edge. */
export interface JobQuery {
  jobId: string | undefined;
  wait: string | undefined;
}

function parseWait(wait: string | undefined): number {
  if (wait === undefined || wait === '') return 0;
  if (!/^\d{1,3}$/.test(wait) || Number(wait) > maxWaitSeconds) {
    throw DomainError.badRequest('wait', `wait must be an integer number of seconds from 0 to ${maxWaitSeconds}`);
  }
  return Number(wait);
}

/** Share tests (spec endpoints 3 and 4) and the test/scan extensions of a saved share. */
export class JobService {
  constructor(
    private readonly deps: CoreDeps,
    private readonly engine: JobEngine,
    private readonly drivers: ShareDriverRegistry,
    private readonly nas: NasService,
    private readonly shares: ShareService,
    private readonly settings: SettingsService,
    private readonly resolveHost?: ResolveHost,
  ) {}

  /** Jobs by status, for metrics and the SNMP agent's gauges. */
  countByStatus(): Promise<Record<JobStatus, number>> {
    return this.deps.storage.jobs.countByStatus();
  }

  /**
   * The newest jobs with what they ran on: an admin user sees every job, anyone else the jobs
   * it (or, for a key, its owner's key tree) asked for, since a job's message can name hosts.
   */
  async recent(principal: Principal, limit = 10): Promise<RecentJob[]> {
    const bounded = Math.min(Math.max(Math.trunc(limit), 1), maxRecentJobs);
    const seesAll = principal.kind === 'user' && principal.admin;
    const jobs = await this.deps.storage.jobs.recent(bounded, seesAll ? undefined : requesterOf(principal));
    return jobs.map((job) => ({ ...presentJob(job), kind: job.kind, nas_id: job.nas_id, share_id: job.share_id, created_at: job.created_at, finished_at: job.finished_at }));
  }

  /** Job requests refused by the queue bounds since start, by bound. */
  rejections(): Readonly<Record<'per_principal' | 'overall', number>> {
    return this.engine.rejections;
  }

  /**
   * What every job request passes before it is queued: the target host within
   * `share_test_allowed_hosts`, and the queue bounds of the requester and of the service.
   */
  private async admit(principal: Principal, nas: NasRecord): Promise<QueueBounds & { requestedBy: string }> {
    const settings = await this.settings.current();
    // Early, in the requester's words; the driver checks again where it connects (finding 20.4).
    await checkHostAllowed(createHostPolicy(settings.share_test_allowed_hosts, this.resolveHost), nas.type, nas.host);
    return { requestedBy: requesterOf(principal), perRequester: settings.job_queue_max_per_principal, total: settings.job_queue_max_total };
  }

  /** PUT /nas/{nas_id}/nas_shares/-/test: validates the body like a create, queues a test. */
  async testUnsaved(principal: Principal, nasRef: string, body: unknown): Promise<ActiveJobStatus> {
    authorize(principal, 'nas_shares', 'test');
    const input = parseInput(nasShareCreateSchema, body);
    const nas = await this.nas.resolve(nasRef);
    await checkSharePath(this.drivers, nas, input.path);
    const location = {
      type: nas.type,
      host: nas.host,
      path: input.path,
      options: input.options || null,
      username: input.username ?? null,
      password: input.password ?? null,
    };
    const total = this.drivers.forType(nas.type).testSteps({ ...location, options: parseShareOptions(location.options) }).length;
    const bounds = await this.admit(principal, nas);
    const job = await this.engine.enqueue('share_test', { kind: 'share_test', location, label: input.name }, { nasId: nas.id, shareId: null, total }, bounds);
    return presentJob(job);
  }

  /** PUT /nas_shares/{id}/test: re-tests a saved share with its stored credentials. */
  async testSaved(principal: Principal, scope: ShareScope, shareRef: string): Promise<ActiveJobStatus> {
    authorize(principal, 'nas_shares', 'test');
    const share = await this.shares.resolve(scope, shareRef);
    const nas = await this.nasOf(share);
    const total = this.drivers.forType(nas.type).testSteps({ type: nas.type, host: nas.host, path: share.path, options: parseShareOptions(share.options), username: share.username, password: null }).length;
    const bounds = await this.admit(principal, nas);
    const job = await this.engine.enqueue('share_test', { kind: 'share_test_saved', shareId: share.id }, { nasId: share.nas_id, shareId: share.id, total }, bounds);
    return presentJob(job);
  }

  async scan(principal: Principal, scope: ShareScope, shareRef: string): Promise<ActiveJobStatus> {
    authorize(principal, 'nas_shares', 'scan');
    const share = await this.shares.resolve(scope, shareRef);
    const bounds = await this.admit(principal, await this.nasOf(share));
    const job = await this.engine.enqueue('share_scan', { kind: 'share_scan', shareId: share.id }, { nasId: share.nas_id, shareId: share.id, total: 0 }, bounds);
    return presentJob(job);
  }

  private async nasOf(share: NasShareRecord): Promise<NasRecord> {
    const nas = await this.deps.storage.nas.get(share.nas_id);
    if (!nas) throw DomainError.notFound('nas_id', share.nas_id);
    return nas;
  }

  /** GET …/-/test?job_id=: a job started under another NAS is 404. */
  async testStatusUnderNas(principal: Principal, nasRef: string, query: JobQuery): Promise<ActiveJobStatus> {
    authorize(principal, 'nas_shares', 'test');
    const jobId = this.requireJobId(query);
    const wait = parseWait(query.wait);
    const nas = await this.nas.resolve(nasRef);
    return this.follow(jobId, wait, (job) => job.kind === 'share_test' && job.nas_id === nas.id);
  }

  async statusForShare(principal: Principal, kind: JobKind, scope: ShareScope, shareRef: string, query: JobQuery): Promise<ActiveJobStatus> {
    authorize(principal, 'nas_shares', kind === 'share_scan' ? 'scan' : 'test');
    const jobId = this.requireJobId(query);
    const wait = parseWait(query.wait);
    const share = await this.shares.resolve(scope, shareRef);
    return this.follow(jobId, wait, (job) => job.kind === kind && job.share_id === share.id);
  }

  private requireJobId(query: JobQuery): string {
    if (!query.jobId) {
      throw new DomainError('bad_request', 'job_id is required', { details: { job_id: [{ error: 'blank' }] } });
    }
    // A bad query parameter (DESIGN §5.12), and PostgreSQL cannot compare text holding NUL.
    if (hasNul(query.jobId)) throw DomainError.badRequest('job_id', 'query parameter "job_id" must not contain NUL characters (%00)');
    return query.jobId;
  }

  /** Reads a job; with `wait`, long-polls until its status changes or the time is up. */
  private async follow(jobId: string, waitSeconds: number, belongs: (job: JobRecord) => boolean): Promise<ActiveJobStatus> {
    const read = async () => {
      const job = await this.deps.storage.jobs.get(jobId);
      if (!job || !belongs(job)) throw DomainError.notFound('job_id', jobId);
      return job;
    };
    let job = await read();
    // The deadline is on the injected clock, so a test moves it instead of waiting it out;
    // each wake-up waits at most 250 ms of real time, so a clock moved past it is seen soon.
    const now = () => this.deps.clock().getTime();
    const deadline = now() + waitSeconds * 1000;
    const seen = job.status;
    // Once the service is stopping, the status as it is now is the answer: this process runs
    // nothing more, and the client asks again elsewhere or after the restart (issue 21 item 4).
    const draining = this.engine.draining;
    while (job.status === seen && (seen === 'queued' || seen === 'working') && now() < deadline && !draining.aborted) {
      // A local signal answers at once; the poll covers jobs run by another replica.
      await this.engine.signals.next(`changed:${jobId}`, Math.min(250, deadline - now()), draining);
      job = await read();
    }
    return presentJob(job);
  }
}
