import { z } from 'zod';
import type { nasCreateSchema, nasUpdateSchema, ShareHealth } from '@dms/core';

const shareHealths: readonly ShareHealth[] = ['ok', 'unreachable', 'unknown'];
import { router, userProcedure } from '../trpc.js';
import { typed, type Input } from './inputs.js';
import { crudProcedures } from './crud-procedures.js';

export const nasRouter = router({
  ...crudProcedures({
    service: (core) => core.nas,
    key: 'nas',
    create: typed<Input<typeof nasCreateSchema>>(),
    update: z.custom<Input<typeof nasUpdateSchema>>(),
  }),
  /**
   * The absolute folders a local share may lie under, for the share form to name: to an admin
   * only (a path of this machine says more than a user needs), null to anyone else.
   */
  /**
   * For the NAS table: each listed NAS's shares by health (ok, unreachable, unknown), counted
   * by the core's list contract; at most a page of NAS (100) at once.
   */
  shareHealth: userProcedure.input(z.object({ ids: z.array(z.number().int()).max(100) })).query(async ({ ctx, input }) => {
    const count = async (nasId: number, health: ShareHealth) =>
      (await ctx.core.shares.list(ctx.principal, { kind: 'all' }, { nas_id: [String(nasId)], health: [health], per_page: ['1'] })).count;
    return Promise.all(
      input.ids.map(async (nasId) => {
        const [ok, unreachable, unknown] = await Promise.all(shareHealths.map((health) => count(nasId, health)));
        return { nas_id: nasId, ok: ok!, unreachable: unreachable!, unknown: unknown! };
      }),
    );
  }),
  localRoots: userProcedure.query(({ ctx }) => (ctx.principal.kind === 'user' && ctx.principal.admin ? [...(ctx.localRoots ?? [])] : null)),
});
