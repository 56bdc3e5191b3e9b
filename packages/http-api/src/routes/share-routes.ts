import { whenReady } from '@dms/core';
import { respondEmpty, respondJson } from '../http/respond.js';
import type { Context } from 'hono';
import type { Core, ShareScope } from '@dms/core/runtime';
import type { AppEnv } from '../http/env.js';
import type { OperationHandlers } from './route-table.js';
import type { RouteHandler } from '../pipeline/step.js';
import { readJsonBody } from '../http/json-body.js';
import { rawQuery } from '../http/raw-query.js';

type ScopeOf = (c: Context<AppEnv>) => ShareScope;

const underNas: ScopeOf = (c) => ({ kind: 'nas', nasRef: c.req.param('nas_id')! });
const everywhere: ScopeOf = () => ({ kind: 'all' });
const inPool: ScopeOf = (c) => ({ kind: 'pool', poolRef: c.req.param('pool_id')! });

/** One route family over the ShareService: the scope says which shares its paths reach. */
function familyHandlers(core: Core, scopeOf: ScopeOf): Record<'list' | 'show' | 'update' | 'destroy', RouteHandler> {
  const ref = (c: Context<AppEnv>) => c.req.param('nas_share_id')!;
  return {
    list: async (c) => respondJson(c, await core.shares.list(c.get('principal'), scopeOf(c), rawQuery(c))),
    show: (c) => whenReady(core.shares.show(c.get('principal'), scopeOf(c), ref(c)), (share) => respondJson(c, share)),
    update: async (c) => respondJson(c, await core.shares.update(c.get('principal'), scopeOf(c), ref(c), await readJsonBody(c))),
    destroy: async (c) => {
      await core.shares.destroy(c.get('principal'), scopeOf(c), ref(c));
      return respondEmpty(c, 204);
    },
  };
}

/** Handlers of contracts/share-contracts.ts. */
export function shareHandlers(core: Core) {
  const nas = familyHandlers(core, underNas);
  const all = familyHandlers(core, everywhere);
  const pool = familyHandlers(core, inPool);
  return {
    listNasSharesByNas: nas.list,
    showNasShareByNas: nas.show,
    updateNasShareByNas: nas.update,
    deleteNasShareByNas: nas.destroy,
    listNasShares: all.list,
    showNasShare: all.show,
    updateNasShare: all.update,
    deleteNasShare: all.destroy,
    listNasSharesByPool: pool.list,
    showNasShareByPool: pool.show,
    updateNasShareByPool: pool.update,
    deleteNasShareByPool: pool.destroy,
    createNasShare: async (c) => respondJson(c, await core.shares.create(c.get('principal'), c.req.param('nas_id')!, await readJsonBody(c)), 201),
  } satisfies Partial<OperationHandlers>;
}
