import type { Alert } from '@dms/core';
import { cliPrincipal } from './cli-principal.js';
import { notePartialPage, printTable } from './table.js';
import { withDms, type Output } from './with-dms.js';

function alertRow(alert: Alert): string[] {
  const about = alert.resource === null ? '-' : `${alert.resource.type}/${alert.resource.name ?? alert.resource.id ?? '?'}`;
  return [String(alert.id), String(alert.level), alert.source, about, alert.message, alert.raised_at, alert.dismissed_at === null ? 'no' : 'yes'];
}

/** `dms alerts list`: the open alerts (not cleared), newest first, as GET /alerts?cleared_at=null. */
export async function alertsList(values: { limit?: string }, out: Output): Promise<number> {
  const { count, alerts } = await withDms((dms) =>
    dms.core.alerts.list(cliPrincipal, { cleared_at: ['null'], ...(values.limit === undefined ? {} : { limit: [values.limit] }) }),
  );
  printTable(out, { none: 'no open alerts', header: ['id', 'level', 'source', 'about', 'message', 'raised', 'dismissed'], rows: alerts.map(alertRow) });
  notePartialPage(alerts.length, count, 'open alerts');
  return 0;
}

/** `dms alerts dismiss ID`: as PUT /alerts/{id} {"dismissed": true}; it still clears by itself. */
export async function alertsDismiss(id: string, out: Output): Promise<number> {
  const alert = await withDms((dms) => dms.core.alerts.update(cliPrincipal, id, { dismissed: true }));
  out(`dismissed alert ${alert.id} (${alert.source}: ${alert.message})`);
  return 0;
}
