import { jobStatuses, type JobKind, type JobStatus } from '@dms/core';
import { FilterBar, FilterSelect } from '../../ui/filter-bar.js';
import { jobKindLabels, jobStatusLabels, optionsOf } from '../../labels/storage-labels.js';

/** What the job history is narrowed to: one status and one kind, or all of them (''). */
export interface JobFilter {
  status: JobStatus | '';
  kind: JobKind | '';
}

export const noJobFilter: JobFilter = { status: '', kind: '' };

/** The filter as the core's list contract takes it: `status=failed`, `kind=share_scan`. */
export function jobFilterParams(filter: JobFilter): Record<string, string> {
  return { ...(filter.status ? { status: filter.status } : {}), ...(filter.kind ? { kind: filter.kind } : {}) };
}

/** Choosing a status or a kind narrows the table at once. */
export function JobsFilter({ value, onChange }: { value: JobFilter; onChange: (filter: JobFilter) => void }) {
  return (
    <FilterBar label="Filter jobs" filtered={value.status !== '' || value.kind !== ''} onClear={() => onChange(noJobFilter)}>
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
    </FilterBar>
  );
}
