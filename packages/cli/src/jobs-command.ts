import { isDomainError, jobKinds, jobStatuses, type Job } from '@dms/core';
import type { Dms } from '@dms/core/runtime';
import { cliPrincipal } from './cli-principal.js';
import { equalTo, idsAmong, oneOf } from './list-flags.js';
import { notePartialPage, printTable } from './table.js';
import { withDms, type Output } from './with-dms.js';

/**
 * The share id `--share` filters on: the share REF names (id or name, as everywhere). A number
 * no share has any more is taken as the id of a deleted share, whose jobs stay in the history.
 */
async function shareIdOf(dms: Dms, ref: string): Promise<string> {
  try {
    return String((await dms.core.shares.show(cliPrincipal, { kind: 'all' }, ref)).id);
  } catch (error) {
    if (isDomainError(error) && error.code === 'not_found' && /^[1-9]\d*$/.test(ref)) return ref;
    throw error;
  }
}

/** The names of the shares a page of jobs is about, in one list call; a deleted share has none (its id is shown). */
async function shareNamesOf(dms: Dms, jobs: readonly Job[]): Promise<Map<number, string>> {
  const ids = jobs.map((job) => job.nas_share_id);
  if (!ids.some((id) => id !== null)) return new Map();
  const { nas_shares: shares } = await dms.core.shares.list(cliPrincipal, { kind: 'all' }, idsAmong(ids));
  return new Map(shares.map((share) => [share.id, share.name]));
}

function jobRow(job: Job, shareNames: Map<number, string>): string[] {
  return [
    job.job_id,
    job.kind,
    job.nas_share_id === null ? '-' : (shareNames.get(job.nas_share_id) ?? String(job.nas_share_id)),
    job.requester,
    job.status,
    `${job.progress}/${job.total}`,
    job.created_at,
    job.finished_at ?? '-',
  ];
}

/** `dms jobs list`: the job history, newest first, with the filters of GET /jobs. */
export async function jobsList(values: { status?: string; kind?: string; share?: string; requester?: string; limit?: string }, out: Output): Promise<number> {
  const status = oneOf('status', values.status, jobStatuses);
  const kind = oneOf('kind', values.kind, jobKinds);
  const { count, listed, shareNames } = await withDms(async (dms) => {
    const { count, jobs: listed } = await dms.core.jobs.list(cliPrincipal, {
      status: equalTo(status),
      kind: equalTo(kind),
      nas_share_id: values.share === undefined ? undefined : [`=${await shareIdOf(dms, values.share)}`],
      requester: equalTo(values.requester),
      limit: values.limit === undefined ? undefined : [values.limit],
    });
    return { count, listed, shareNames: await shareNamesOf(dms, listed) };
  });
  printTable(out, {
    none: 'no jobs',
    header: ['id', 'kind', 'share', 'requester', 'status', 'progress', 'created', 'finished'],
    rows: listed.map((job) => jobRow(job, shareNames)),
  });
  notePartialPage(listed.length, count, 'jobs');
  return 0;
}
