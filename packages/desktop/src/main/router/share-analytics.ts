import { z } from 'zod';
import { router, userProcedure } from '../trpc.js';
import { ref, shareScope } from './inputs.js';

const oneShare = z.object({ scope: shareScope, share: ref });
const scanId = z.number().int().positive();

/**
 * Where a share's space goes (docs/decisions/158-console-scan-analytics.md): a scan with its
 * analytics, as GET /nas_shares/{id}/scans/{scan_id}, and two scans compared, as
 * GET /nas_shares/{id}/scans/compare.
 */
export const shareAnalyticsRouter = router({
  /** The share's scan `scan`, or its latest; undefined before any scan. */
  scan: userProcedure.input(oneShare.extend({ scan: scanId.optional() })).query(async ({ ctx, input }) => {
    let id = input.scan;
    if (id === undefined) {
      const latest = await ctx.core.shares.scans(ctx.principal, input.scope, input.share, { limit: ['1'] });
      if (latest.scans.length === 0) return undefined;
      id = latest.scans[0]!.id;
    }
    return ctx.core.shares.scan(ctx.principal, input.scope, input.share, String(id));
  }),
  compare: userProcedure
    .input(oneShare.extend({ from: scanId, to: scanId }))
    .query(({ ctx, input }) => ctx.core.shares.compareScans(ctx.principal, input.scope, input.share, { from: [String(input.from)], to: [String(input.to)] })),
});
