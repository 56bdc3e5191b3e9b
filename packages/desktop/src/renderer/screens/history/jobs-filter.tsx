import { useCallback } from 'react';
import { jobStatuses, type JobKind, type JobStatus } from '@dms/core';
import { api } from '../../trpc-client.js';
import { useLoad } from '../../ui/use-load.js';
import { FilterBar, FilterSearch, FilterSelect } from '../../ui/filter-bar.js';
import { jobKindLabels, jobStatusLabels, optionsOf } from '../../labels/storage-labels.js';

/**
 * What the job history is narrowed to, as the API filters it: a status, a kind, a NAS and one of
 * its shares (their ids), a part of the requester's name, and a time range (local date and
 * time, as datetime-local gives them); '' is "any".
 */
export interface JobFilter {
  status: JobStatus | '';
  kind: JobKind | '';
  nasId: string;
  shareId: string;
  requester: string;
  since: string;
  until: string;
}

export const noJobFilter: JobFilter = { status: '', kind: '', nasId: '', shareId: '', requester: '', since: '', until: '' };

/** Whether any part of the filter narrows the history. */
export function isJobFiltered(filter: JobFilter): boolean {
  return Object.values(filter).some((value) => value !== '');
}

/** A local date and time in UTC, as jobs are stored; undefined when it is not one. */
function utc(local: string): string | undefined {
  const at = local ? new Date(local) : undefined;
  return at && !Number.isNaN(at.getTime()) ? at.toISOString() : undefined;
}

/**
 * The filter as the core's list contract takes it: `status=failed`, `kind=share_scan`,
 * `nas_id=2`, `nas_share_id=7`, `requester=~%adm%` (a part of the name), and `created_at`
 * twice for a range (`>=since`, `<=until`).
 */
export function jobFilterParams(filter: JobFilter): Record<string, string | string[]> {
  const created = [utc(filter.since) && `>=${utc(filter.since)}`, utc(filter.until) && `<=${utc(filter.until)}`].filter((term): term is string => !!term);
  return {
    ...(filter.status ? { status: filter.status } : {}),
    ...(filter.kind ? { kind: filter.kind } : {}),
    ...(filter.nasId ? { nas_id: filter.nasId } : {}),
    ...(filter.shareId ? { nas_share_id: filter.shareId } : {}),
    ...(filter.requester ? { requester: `~%${filter.requester}%` } : {}),
    ...(created.length > 0 ? { created_at: created } : {}),
  };
}

// The pickers' names: one page of the largest size, in case-insensitive order (the shares of the chosen NAS only).
const names = { per_page: 100, sort_by: 'name:ci' } as const;

/** Choices narrow the table at once; typing a requester narrows it after a short pause. */
export function JobsFilter({ value, onChange }: { value: JobFilter; onChange: (filter: JobFilter) => void }) {
  const nas = useLoad(() => api.nas.list.query(names));
  const shareQuery = { ...names, ...(value.nasId ? { nas_id: value.nasId } : {}) };
  const shares = useLoad(() => api.shares.list.query({ query: shareQuery }), JSON.stringify(shareQuery));
  const setRequester = useCallback((requester: string) => onChange({ ...value, requester }), [value, onChange]);
  return (
    <FilterBar
      label="Filter jobs"
      filtered={isJobFiltered(value)}
      onClear={() => onChange(noJobFilter)}
      hint={{ id: 'jobs-filter-hint', text: 'Requester: a user’s or API key’s name, or scheduler. Times: your local time.' }}
    >
      <FilterSelect
        label="Status"
        name="filter-status"
        value={value.status}
        anyLabel="Any status"
        options={jobStatuses.map((status) => [status, jobStatusLabels[status]] as const)}
        onChange={(status) => onChange({ ...value, status })}
      />
      <FilterSelect
        label="Kind"
        name="filter-kind"
        value={value.kind}
        anyLabel="Tests and scans"
        options={optionsOf(jobKindLabels)}
        onChange={(kind) => onChange({ ...value, kind })}
      />
      <FilterSelect
        label="NAS"
        name="filter-nas"
        value={value.nasId}
        anyLabel="Any NAS"
        options={(nas.data?.nas ?? []).map((item) => [String(item.id), item.name] as const)}
        // Another NAS: a share of the one before no longer applies.
        onChange={(nasId) => onChange({ ...value, nasId, shareId: '' })}
      />
      <FilterSelect
        label="Share"
        name="filter-share"
        value={value.shareId}
        anyLabel="Any share"
        options={(shares.data?.nas_shares ?? []).map((share) => [String(share.id), share.name] as const)}
        onChange={(shareId) => onChange({ ...value, shareId })}
      />
      <FilterSearch label="Requester contains" name="filter-requester" value={value.requester} onChange={setRequester} describedBy="jobs-filter-hint" />
      <label>
        Since
        <input type="datetime-local" name="filter-since" value={value.since} onChange={(event) => onChange({ ...value, since: event.target.value })} />
      </label>
      <label>
        Until
        <input type="datetime-local" name="filter-until" value={value.until} onChange={(event) => onChange({ ...value, until: event.target.value })} />
      </label>
    </FilterBar>
  );
}
