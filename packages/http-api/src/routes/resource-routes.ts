import { respondEmpty, respondJson } from '../http/respond.js';
import type { Core } from '@dms/core/runtime';
import type { OperationHandlers } from './route-table.js';
import { crudHandlers, singletonHandlers } from './crud-routes.js';

/**
 * On DELETE /pools/{id}: how many shares the pool held, now in no pool. The answer stays 204
 * without a body (as every delete); a client that wants to say what happened reads this.
 */
export const releasedSharesHeader = 'Dms-Released-Shares';

/** Handlers of contracts/nas-contracts.ts, pool-contracts.ts and snmp-contracts.ts. */
export function resourceHandlers(core: Core) {
  const nas = crudHandlers(core.nas, 'nas_id');
  const pools = crudHandlers(core.pools, 'pool_id');
  const traps = crudHandlers(core.traps, 'snmp_trap_id');
  const snmpConfig = singletonHandlers(core.snmpConfig);
  return {
    listNas: nas.list,
    createNas: nas.create,
    showNas: nas.show,
    updateNas: nas.update,
    deleteNas: nas.destroy,
    listPools: pools.list,
    createPool: pools.create,
    showPool: pools.show,
    updatePool: pools.update,
    deletePool: async (c) => {
      const { released_nas_share_ids: released } = await core.pools.destroy(c.get('principal'), c.req.param('pool_id')!);
      return respondEmpty(c, 204, { [releasedSharesHeader]: String(released.length) });
    },
    listSnmpTraps: traps.list,
    createSnmpTrap: traps.create,
    showSnmpTrap: traps.show,
    updateSnmpTrap: traps.update,
    deleteSnmpTrap: traps.destroy,
    testSnmpTrap: async (c) => respondJson(c, await core.traps.test(c.get('principal'), c.req.param('snmp_trap_id')!), 202),
    showSnmpServerConfiguration: snmpConfig.show,
    updateSnmpServerConfiguration: snmpConfig.update,
  } satisfies Partial<OperationHandlers>;
}
