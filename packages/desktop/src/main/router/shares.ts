import { z } from 'zod';
import { shareScanListQuerySchema, type nasShareCreateSchema, type nasShareUpdateSchema } from '@dms/core';
import { router, userProcedure } from '../trpc.js';
import { historyQuery, listQuery, ref, shareScope, type Input } from './inputs.js';
import { shareBulkRouter } from './share-bulk.js';

const oneShare = z.object({ scope: shareScope, share: ref });

export const sharesRouter = router({
  /** The list contract of the REST lists: `query` takes the same parameters (limit, sort_by, filters …). */
  list: userProcedure
    .input(z.object({ scope: shareScope, query: listQuery }).optional())
    .query(({ ctx, input }) => ctx.core.shares.list(ctx.principal, input?.scope ?? { kind: 'all' }, input?.query ?? {})),
  show: userProcedure.input(oneShare).query(({ ctx, input }) => ctx.core.shares.show(ctx.principal, input.scope, input.share)),
  create: userProcedure
    .input(z.object({ nas: ref, body: z.custom<Input<typeof nasShareCreateSchema>>() }))
    .mutation(({ ctx, input }) => ctx.core.shares.create(ctx.principal, input.nas, input.body)),
  update: userProcedure
    .input(oneShare.extend({ body: z.custom<Input<typeof nasShareUpdateSchema>>() }))
    .mutation(({ ctx, input }) => ctx.core.shares.update(ctx.principal, input.scope, input.share, input.body)),
  delete: userProcedure.input(oneShare).mutation(({ ctx, input }) => ctx.core.shares.destroy(ctx.principal, input.scope, input.share)),
  /** Tests a share before it is saved (the create body), under its NAS. */
  testUnsaved: userProcedure
    .input(z.object({ nas: ref, body: z.custom<Input<typeof nasShareCreateSchema>>() }))
    .mutation(({ ctx, input }) => ctx.core.jobs.testUnsaved(ctx.principal, input.nas, input.body)),
  /** Re-tests a saved share with its stored credentials. */
  test: userProcedure.input(oneShare).mutation(({ ctx, input }) => ctx.core.jobs.testSaved(ctx.principal, input.scope, input.share)),
  scan: userProcedure.input(oneShare).mutation(({ ctx, input }) => ctx.core.jobs.scan(ctx.principal, input.scope, input.share)),
  /** GET /nas_shares/{id}/scans: the share's completed scans (when, files, bytes, how long), newest first unless sorted. */
  scans: userProcedure
    .input(oneShare.extend({ query: historyQuery(shareScanListQuerySchema) }))
    .query(({ ctx, input }) => ctx.core.shares.scans(ctx.principal, input.scope, input.share, input.query)),
  /** The share's capacity readings (tests' and scans') over the last `days` (30), thinned to at most 500: its space chart. */
  capacityHistory: userProcedure
    .input(oneShare.extend({ days: z.number().int().min(1).max(3650).default(30) }))
    .query(({ ctx, input }) => ctx.core.shares.capacityHistory(ctx.principal, input.scope, input.share, input.days)),
  /** Tests, scans, deletes or pools many shares at once: ticked ones, or all matching a filter. */
  bulk: shareBulkRouter,
});
