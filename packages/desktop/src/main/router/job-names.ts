import { isAllowed, type Job, type Principal } from '@dms/core';
import type { Core } from '@dms/core/runtime';

/** A job with the names of what it ran on; null when that is gone (or was never saved). */
export type JobWithNames = Job & { share_name: string | null; nas_name: string | null };

/** `id=><1|2|3` with a page as long as the list: one indexed read per kind, at most a page of ids. */
function byIds(ids: ReadonlySet<number>) {
  return { id: [`><${[...ids].join('|')}`], limit: [String(ids.size)] };
}

/**
 * Names for the ids the jobs carry, read through the same list calls as the screens (so the
 * principal's rights apply): one query for the shares and one for the NAS, not one per job.
 */
export async function withNames(core: Core, principal: Principal, jobs: Job[]): Promise<JobWithNames[]> {
  const shareIds = new Set(jobs.flatMap((job) => (job.nas_share_id === null ? [] : [job.nas_share_id])));
  const nasIds = new Set(jobs.flatMap((job) => (job.nas_id === null ? [] : [job.nas_id])));
  const [shares, nas] = await Promise.all([
    shareIds.size > 0 && isAllowed(principal, 'nas_shares', 'index') ? core.shares.list(principal, { kind: 'all' }, byIds(shareIds)) : undefined,
    nasIds.size > 0 && isAllowed(principal, 'nas', 'index') ? core.nas.list(principal, byIds(nasIds)) : undefined,
  ]);
  const shareNames = new Map(shares?.nas_shares.map((share) => [share.id, share.name]));
  const nasNames = new Map(nas?.nas.map((item) => [item.id, item.name]));
  return jobs.map((job) => ({
    ...job,
    share_name: job.nas_share_id === null ? null : (shareNames.get(job.nas_share_id) ?? null),
    nas_name: job.nas_id === null ? null : (nasNames.get(job.nas_id) ?? null),
  }));
}
