import { z } from 'zod';
import { toDomainError, type DomainErrorCode, type Principal, type RawQuery } from '@dms/core';
import type { Core } from '@dms/core/runtime';
import { router, userProcedure } from '../trpc.js';
import { listQuery, ref } from './inputs.js';

/** The largest page the list contract serves: "all matching" is read in pages of this size. */
const pageSize = 100;

/**
 * Which shares a bulk action touches: the ticked ids, or every share matching the screen's
 * filter (resolved here, so a selection is never limited to the page the console shows).
 */
const shareIds = z.array(z.number().int()).max(100_000);
const selection = z.union([z.object({ ids: shareIds }), z.object({ matching: listQuery, except: shareIds.optional() })]);
type Selection = z.output<typeof selection>;

/** Shares refused for the same reason: how many, which, and the first refusal's words. */
export interface RefusalGroup {
  code: DomainErrorCode;
  message: string;
  shareIds: number[];
}

/** What a bulk action did: the shares it was accepted for, and the refusals grouped by their code. */
export interface BulkOutcome {
  accepted: number;
  refused: RefusalGroup[];
}

/** A job a bulk action queued, by its share. */
export interface StartedJob {
  shareId: number;
  jobId: string;
}

/** Every share id matching the filter (sort and paging of the filter are ignored), read page by page. */
async function matchingIds(core: Core, principal: Principal, matching: RawQuery): Promise<number[]> {
  const filters = Object.fromEntries(Object.entries(matching).filter(([key]) => !['page', 'per_page', 'limit', 'offset', 'sort_by'].includes(key)));
  const ids: number[] = [];
  for (let page = 1; ; page += 1) {
    const { count, nas_shares } = await core.shares.list(
      principal,
      { kind: 'all' },
      { ...filters, sort_by: ['id'], per_page: [String(pageSize)], page: [String(page)] },
    );
    ids.push(...nas_shares.map((share) => share.id));
    if (nas_shares.length < pageSize || ids.length >= count) return ids;
  }
}

async function resolveSelection(core: Core, principal: Principal, chosen: Selection): Promise<number[]> {
  if ('ids' in chosen) return [...new Set(chosen.ids)];
  const except = new Set(chosen.except);
  return (await matchingIds(core, principal, chosen.matching)).filter((id) => !except.has(id));
}

/**
 * Runs `action` on each share, one at a time, as the core's ordinary calls do for one share:
 * each is bounded by the core on its own (job limits, allowed hosts, rights), and its refusal
 * is kept, grouped by code, instead of stopping the rest.
 */
async function eachShare(ids: number[], action: (id: number) => Promise<unknown>): Promise<BulkOutcome> {
  const groups = new Map<DomainErrorCode, RefusalGroup>();
  let accepted = 0;
  for (const id of ids) {
    try {
      await action(id);
      accepted += 1;
    } catch (error) {
      const domain = toDomainError(error);
      const group = groups.get(domain.code) ?? { code: domain.code, message: domain.message, shareIds: [] };
      group.shareIds.push(id);
      groups.set(domain.code, group);
    }
  }
  return { accepted, refused: [...groups.values()] };
}

const all = { kind: 'all' } as const;

export const shareBulkRouter = router({
  /** How many shares a selection names, and their ids: "all 1,240 matching" before acting on them. */
  resolve: userProcedure.input(z.object({ selection })).query(async ({ ctx, input }) => {
    const ids = await resolveSelection(ctx.core, ctx.principal, input.selection);
    return { count: ids.length, ids };
  }),
  /**
   * A test or a scan of each selected share, each queued by the core under its job bounds; with
   * each accepted share's job id, so the console's rows follow their jobs to the end.
   */
  start: userProcedure
    .input(z.object({ selection, kind: z.enum(['share_test', 'share_scan']) }))
    .mutation(async ({ ctx, input }): Promise<BulkOutcome & { jobs: StartedJob[] }> => {
      const ids = await resolveSelection(ctx.core, ctx.principal, input.selection);
      const start = input.kind === 'share_test' ? ctx.core.jobs.testSaved.bind(ctx.core.jobs) : ctx.core.jobs.scan.bind(ctx.core.jobs);
      const jobs: StartedJob[] = [];
      const outcome = await eachShare(ids, async (id) => {
        const job = await start(ctx.principal, all, String(id));
        jobs.push({ shareId: id, jobId: job.job_id });
      });
      return { ...outcome, jobs };
    }),
  delete: userProcedure.input(z.object({ selection })).mutation(async ({ ctx, input }) => {
    const ids = await resolveSelection(ctx.core, ctx.principal, input.selection);
    return eachShare(ids, (id) => ctx.core.shares.destroy(ctx.principal, all, String(id)));
  }),
  /**
   * Adds the selection to a pool: the core's update takes the pool's whole membership, so it is
   * the current members and the selection, in one call (one refusal for all, or none).
   */
  addToPool: userProcedure.input(z.object({ selection, pool: ref })).mutation(async ({ ctx, input }) => {
    const ids = await resolveSelection(ctx.core, ctx.principal, input.selection);
    const pool = await ctx.core.pools.show(ctx.principal, input.pool);
    const members = new Set(pool.nas_share_ids);
    const added = ids.filter((id) => !members.has(id));
    await ctx.core.pools.update(ctx.principal, String(pool.id), { nas_share_ids: [...pool.nas_share_ids, ...added] });
    return { added: added.length, already: ids.length - added.length, pool: pool.name };
  }),
});
