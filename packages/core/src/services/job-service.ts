import type { CoreDeps } from './core-deps.js';
import type { Principal } from '../scopes/principal.js';
import type { JobRecord } from '../ports/job-store.js';
import type { ShareDriverRegistry } from '../ports/share-driver.js';
import type { NasService } from './nas-service.js';
import type { ShareService, ShareScope } from './share-service.js';
import type { JobEngine } from '../jobs/job-engine.js';
import type { ActiveJobStatus, JobKind } from '../domain/job.js';
import { authorize } from '../scopes/scope-check.js';
import { parseInput } from '../errors/zod-details.js';
import { DomainError } from '../errors/domain-error.js';
import { nasShareCreateSchema, parseShareOptions } from '../domain/nas-share.js';

export const maxWaitSeconds = 30;

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
  ) {}

  /** PUT /nas/{nas_id}/nas_shares/-/test: validates the body like a create, queues a test. */
  async testUnsaved(principal: Principal, nasRef: string, body: unknown): Promise<ActiveJobStatus> {
    authorize(principal, 'nas_shares', 'test');
    const input = parseInput(nasShareCreateSchema, body);
    const nas = await this.nas.resolve(nasRef);
    const location = {
      type: nas.type,
      host: nas.host,
      path: input.path,
      options: input.options || null,
      username: input.username ?? null,
      password: input.password ?? null,
    };
    const total = this.drivers.forType(nas.type).testSteps({ ...location, options: parseShareOptions(location.options) }).length;
    const job = await this.engine.enqueue('share_test', { kind: 'share_test', location, label: input.name }, { nasId: nas.id, shareId: null, total });
    return presentJob(job);
  }

  /** PUT /nas_shares/{id}/test: re-tests a saved share with its stored credentials. */
  async testSaved(principal: Principal, scope: ShareScope, shareRef: string): Promise<ActiveJobStatus> {
    authorize(principal, 'nas_shares', 'test');
    const share = await this.shares.resolve(scope, shareRef);
    const nas = await this.deps.storage.nas.get(share.nas_id);
    const total = nas ? this.drivers.forType(nas.type).testSteps({ type: nas.type, host: nas.host, path: share.path, options: parseShareOptions(share.options), username: share.username, password: null }).length : 0;
    const job = await this.engine.enqueue('share_test', { kind: 'share_test_saved', shareId: share.id }, { nasId: share.nas_id, shareId: share.id, total });
    return presentJob(job);
  }

  async scan(principal: Principal, scope: ShareScope, shareRef: string): Promise<ActiveJobStatus> {
    authorize(principal, 'nas_shares', 'scan');
    const share = await this.shares.resolve(scope, shareRef);
    const job = await this.engine.enqueue('share_scan', { kind: 'share_scan', shareId: share.id }, { nasId: share.nas_id, shareId: share.id, total: 0 });
    return presentJob(job);
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
    const deadline = Date.now() + waitSeconds * 1000;
    const seen = job.status;
    while (job.status === seen && (seen === 'queued' || seen === 'working') && Date.now() < deadline) {
      // A local signal answers at once; the poll covers jobs run by another replica.
      await this.engine.signals.next(`changed:${jobId}`, Math.min(250, deadline - Date.now()));
      job = await read();
    }
    return presentJob(job);
  }
}
