import type { AuditEvent, JobStatus, Principal } from '@dms/core';
import { scopeCatalogue } from '@dms/core';
import type { Core } from '@dms/core/runtime';

/** A job an audit event started: its id and how it went, or null when it is no longer kept. */
export interface AuditEventJob {
  job_id: string;
  status: JobStatus;
}

export type AuditEventWithJob = AuditEvent & { job: AuditEventJob | null };

/**
 * A job is stored in the same transaction as the event that started it; this much apart their
 * two timestamps still name the same start, and a second start of the same share's job this
 * close is told apart by its requester and the nearest time.
 */
const sameStartMs = 2_000;

/**
 * The job each share test or scan event started (the event records the request, which succeeds
 * even when the test then fails): found among the jobs of its share and kind created within a
 * moment of it, the requester's and the nearest first. One small query per such event on the
 * page (at most a page's size, 100).
 */
export async function withJobs(core: Core, principal: Principal, events: AuditEvent[]): Promise<AuditEventWithJob[]> {
  return Promise.all(
    events.map(async (event): Promise<AuditEventWithJob> => {
      const shareId = event.resource?.type === 'nas_shares' ? event.resource.id : null;
      if ((event.action !== 'test' && event.action !== 'scan') || shareId === null || event.outcome !== 'success') return { ...event, job: null };
      const at = Date.parse(event.at);
      const { jobs } = await core.jobs.list(principal, {
        nas_share_id: [shareId],
        kind: [event.action === 'test' ? 'share_test' : 'share_scan'],
        created_at: [`>=${new Date(at - sameStartMs).toISOString()}`, `<=${new Date(at + sameStartMs).toISOString()}`],
        per_page: ['100'],
      });
      const distance = (job: (typeof jobs)[number]) => (job.requester === event.actor.name ? 0 : sameStartMs * 2) + Math.abs(Date.parse(job.created_at) - at);
      const [nearest] = [...jobs].sort((a, b) => distance(a) - distance(b));
      return { ...event, job: nearest ? { job_id: nearest.job_id, status: nearest.status } : null };
    }),
  );
}

/**
 * The resource types the log holds events of, for its filter: each controller of the scope
 * catalogue (a resource's path name is its controller's) asked for one event. Bounded by the
 * catalogue's size, a few cheap counts on one screen's load.
 */
export async function auditedResourceTypes(core: Core, principal: Principal): Promise<string[]> {
  const types = [...new Set<string>(scopeCatalogue.map((entry) => entry.controller))];
  const held = await Promise.all(types.map(async (type) => (await core.auditEvents.list(principal, { resource_type: [type], per_page: ['1'] })).count > 0));
  return types.filter((_, index) => held[index]);
}
