import { listDefaults } from '@dms/core';
import { api, type Outputs } from '../../trpc-client.js';
import { useLoad } from '../../ui/use-load.js';
import { plural } from '../../ui/format.js';
import { byName } from '../../ui/name-order.js';

export type Schedule = Outputs['schedules']['list']['schedules'][number];

export interface Named {
  id: number;
  name: string;
}

/** What a schedule's target names, by id: shares ("projects on filer"), pools and NAS. */
export interface ScheduleNames {
  shares: Named[];
  pools: Named[];
  nas: Named[];
}

// One page of the largest size each: the form offers these, the table names them.
const namesQuery = { per_page: listDefaults.maxPageSize, sort_by: 'name' };

/** The shares, pools and NAS a schedule may name, loaded once for the screen. */
export function useScheduleNames(): { names: ScheduleNames | undefined; error: string | undefined } {
  const shares = useLoad(() => api.shares.list.query({ query: namesQuery }));
  const pools = useLoad(() => api.pools.list.query(namesQuery));
  const nas = useLoad(() => api.nas.list.query(namesQuery));
  const error = shares.error ?? pools.error ?? nas.error;
  if (!shares.data || !pools.data || !nas.data) return { names: undefined, error };
  const nasNames = new Map(nas.data.nas.map((item) => [item.id, item.name]));
  return {
    names: {
      // Offered in the form's pickers: in the order people read names, not the core's byte-wise one.
      shares: byName(
        shares.data.nas_shares.map((share) => ({ id: share.id, name: `${share.name} on ${nasNames.get(share.nas_id) ?? `NAS #${share.nas_id}`}` })),
        (item) => item.name,
      ),
      pools: byName(
        pools.data.pools.map(({ id, name }) => ({ id, name })),
        (item) => item.name,
      ),
      nas: byName(
        nas.data.nas.map(({ id, name }) => ({ id, name })),
        (item) => item.name,
      ),
    },
    error,
  };
}

const nameOf = (list: Named[], id: number, noun: string) => list.find((item) => item.id === id)?.name ?? `${noun} #${id}`;

/** "projects on filer, media on filer", "Pool tier1", "NAS filer", "All shares": what a schedule's runs reach. */
export function targetText(schedule: Schedule, names: ScheduleNames | undefined): string {
  if (schedule.all_shares) return 'All shares';
  if (schedule.pool_id !== null) return `Pool ${names ? nameOf(names.pools, schedule.pool_id, 'pool') : `#${schedule.pool_id}`}`;
  if (schedule.nas_id !== null) return `NAS ${names ? nameOf(names.nas, schedule.nas_id, 'NAS') : `#${schedule.nas_id}`}`;
  const ids = schedule.nas_share_ids ?? [];
  if (!names) return plural(ids.length, 'share');
  const shown = ids.slice(0, 3).map((id) => nameOf(names.shares, id, 'share'));
  return ids.length > 3 ? `${shown.join(', ')} and ${ids.length - 3} more` : shown.join(', ');
}
