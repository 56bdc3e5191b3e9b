import { scheduleActions, type Schedule } from '@dms/core';
import { CliError } from './cli-error.js';
import { cliPrincipal } from './cli-principal.js';
import { oneOf, pageOf } from './list-flags.js';
import { notePageOfMore, printTable } from './table.js';
import { withDms, type Output } from './with-dms.js';

function targetOf(schedule: Schedule): string {
  if (schedule.all_shares) return 'all shares';
  if (schedule.pool_id !== null) return `pool ${schedule.pool_id}`;
  if (schedule.nas_id !== null) return `nas ${schedule.nas_id}`;
  return `shares ${(schedule.nas_share_ids ?? []).join(',')}`;
}

function scheduleRow(schedule: Schedule): string[] {
  return [
    String(schedule.id),
    schedule.name,
    schedule.action,
    targetOf(schedule),
    // One row a schedule: the rule's two lines (DTSTART, RRULE) joined.
    schedule.rrule.replace(/\s*\n\s*/g, ' '),
    schedule.enabled ? 'yes' : 'no',
    schedule.next ?? '-',
    schedule.last_run_at ?? '-',
  ];
}

/** `dms schedules list`: as GET /schedules, in id order. */
export async function schedulesList(values: { limit?: string; offset?: string }, out: Output): Promise<number> {
  const page = pageOf(values);
  const { count, schedules } = await withDms((dms) => dms.core.schedules.list(cliPrincipal, page.query));
  printTable(out, {
    none: 'no schedules',
    header: ['id', 'name', 'action', 'target', 'rrule', 'enabled', 'next', 'last run'],
    rows: schedules.map(scheduleRow),
  });
  notePageOfMore(page.offset, schedules.length, count, 'schedules');
  return 0;
}

export interface ScheduleAddFlags {
  name?: string;
  action?: string;
  rrule?: string;
  share?: string[];
  pool?: string;
  nas?: string;
  all?: boolean;
}

/** `dms schedules add --name N --action A --rrule TEXT TARGET`: as POST /schedules, its target named by id or name. */
export async function schedulesAdd(values: ScheduleAddFlags, out: Output): Promise<number> {
  if (values.name === undefined) throw new CliError('--name is required');
  const action = oneOf('action', values.action, scheduleActions);
  if (action === undefined) throw new CliError(`--action is required (${scheduleActions.join(', ')})`);
  if (values.rrule === undefined) throw new CliError('--rrule is required, e.g. "DTSTART:20261125T120000Z\\nRRULE:FREQ=DAILY"');
  const targets = [values.share !== undefined, values.pool !== undefined, values.nas !== undefined, values.all === true].filter(Boolean).length;
  if (targets !== 1) throw new CliError('name one target: --share REF (repeat it), --pool REF, --nas REF or --all');
  // A shell passes `\n` as two characters: the rule's two lines may be written on one.
  const rrule = values.rrule.replace(/\\n/g, '\n');
  const created = await withDms(async (dms) => {
    const target = values.share
      ? { nas_share_ids: await Promise.all(values.share.map(async (ref) => (await dms.core.shares.show(cliPrincipal, { kind: 'all' }, ref)).id)) }
      : values.pool !== undefined
        ? { pool_id: (await dms.core.pools.show(cliPrincipal, values.pool)).id }
        : values.nas !== undefined
          ? { nas_id: (await dms.core.nas.show(cliPrincipal, values.nas)).id }
          : { all_shares: true };
    return dms.core.schedules.create(cliPrincipal, { name: values.name, action, rrule, ...target });
  });
  out(`added schedule ${created.id} '${created.name}' (${created.action} of ${targetOf(created)}; next run ${created.next ?? 'none'})`);
  return 0;
}

/** `dms schedules rm REF`: as DELETE /schedules/{id}. */
export async function schedulesRm(ref: string, out: Output): Promise<number> {
  const name = await withDms(async (dms) => {
    const schedule = await dms.core.schedules.show(cliPrincipal, ref);
    await dms.core.schedules.destroy(cliPrincipal, String(schedule.id));
    return `${schedule.id} '${schedule.name}'`;
  });
  out(`deleted schedule ${name}`);
  return 0;
}
