import { jobStatuses, type JobKind, type JobStatus } from '@dms/core';
import { jobKindLabels, jobStatusLabels, optionsOf } from '../storage/labels.js';

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
    <div className="storage-filter" role="search" aria-label="Filter jobs">
      <label>
        Status
        <select name="filter-status" value={value.status} onChange={(event) => onChange({ ...value, status: event.target.value as JobFilter['status'] })}>
          <option value="">Any status</option>
          {jobStatuses.map((status) => (
            <option key={status} value={status}>
              {jobStatusLabels[status]}
            </option>
          ))}
        </select>
      </label>
      <label>
        Kind
        <select name="filter-kind" value={value.kind} onChange={(event) => onChange({ ...value, kind: event.target.value as JobFilter['kind'] })}>
          <option value="">Tests and scans</option>
          {optionsOf(jobKindLabels).map(([kind, label]) => (
            <option key={kind} value={kind}>
              {label}
            </option>
          ))}
        </select>
      </label>
      {(value.status || value.kind) && (
        <button type="button" className="secondary" onClick={() => onChange(noJobFilter)}>
          Clear filter
        </button>
      )}
    </div>
  );
}
