import { respondJson } from '../http/respond.js';
import type { Core } from '@dms/core/runtime';
import type { OperationHandlers } from './route-table.js';
import { crudHandlers } from './crud-routes.js';
import { readJsonBody } from '../http/json-body.js';
import { rawQuery } from '../http/raw-query.js';

/** Handlers of contracts/schedule-contracts.ts, alert-contracts.ts and capacity-contracts.ts: what dms keeps watch on. */
export function watchHandlers(core: Core) {
  const schedules = crudHandlers(core.schedules, 'schedule_id');
  return {
    listSchedules: schedules.list,
    createSchedule: schedules.create,
    showSchedule: schedules.show,
    updateSchedule: schedules.update,
    deleteSchedule: schedules.destroy,
    listAlerts: async (c) => respondJson(c, await core.alerts.list(c.get('principal'), rawQuery(c))),
    showAlert: async (c) => respondJson(c, await core.alerts.show(c.get('principal'), c.req.param('alert_id')!)),
    updateAlert: async (c) => respondJson(c, await core.alerts.update(c.get('principal'), c.req.param('alert_id')!, await readJsonBody(c))),
    listAlertSettings: async (c) => respondJson(c, await core.alerts.settings(c.get('principal'))),
    updateAlertSetting: async (c) => respondJson(c, await core.alerts.updateSetting(c.get('principal'), c.req.param('source')!, await readJsonBody(c))),
    // A saved share's history, addressed among all shares as its test and scan jobs are.
    listNasShareScans: async (c) => respondJson(c, await core.shares.scans(c.get('principal'), { kind: 'all' }, c.req.param('nas_share_id')!, rawQuery(c))),
    showCapacity: async (c) => respondJson(c, await core.statistics.capacity(c.get('principal'), rawQuery(c))),
  } satisfies Partial<OperationHandlers>;
}
