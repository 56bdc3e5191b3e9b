import type { AlertSource } from '@dms/core';
import { optionsOf } from '../storage/labels.js';
import { severityNames } from '../snmp/snmp-choices.js';
import { alertSourceLabels } from './watch-labels.js';

/** What the alert list is narrowed to: open ones or all, one source, a lowest level; '' is "any". */
export interface AlertFilter {
  state: 'open' | 'all';
  source: AlertSource | '';
  level: string;
}

export const openAlerts: AlertFilter = { state: 'open', source: '', level: '' };

/** The filter as the core's list contract takes it: `cleared_at=null` (open), `source=scan_failed`, `level=>=4`. */
export function alertFilterParams(filter: AlertFilter): Record<string, string> {
  return {
    ...(filter.state === 'open' ? { cleared_at: 'null' } : {}),
    ...(filter.source ? { source: filter.source } : {}),
    ...(filter.level ? { level: `>=${filter.level}` } : {}),
  };
}

export function isAlertFiltered(filter: AlertFilter): boolean {
  return filter.source !== '' || filter.level !== '';
}

/** Levels above info, each "and above" (critical is the top). */
const lowestLevels = Object.entries(severityNames)
  .filter(([level]) => level !== '1')
  .map(([level, name]) => [level, level === '5' ? name : `${name} and above`] as const);

/** Each choice narrows the list at once. */
export function AlertsFilter({ value, onChange }: { value: AlertFilter; onChange: (filter: AlertFilter) => void }) {
  return (
    <div className="storage-filter" role="search" aria-label="Filter alerts">
      <label>
        Show
        <select name="filter-state" value={value.state} onChange={(event) => onChange({ ...value, state: event.target.value as AlertFilter['state'] })}>
          <option value="open">Open alerts</option>
          <option value="all">All alerts, cleared too</option>
        </select>
      </label>
      <label>
        Source
        <select name="filter-source" value={value.source} onChange={(event) => onChange({ ...value, source: event.target.value as AlertFilter['source'] })}>
          <option value="">Any source</option>
          {optionsOf(alertSourceLabels).map(([source, label]) => (
            <option key={source} value={source}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Level
        <select name="filter-level" value={value.level} onChange={(event) => onChange({ ...value, level: event.target.value })}>
          <option value="">Any level</option>
          {lowestLevels.map(([level, label]) => (
            <option key={level} value={level}>
              {label}
            </option>
          ))}
        </select>
      </label>
      {isAlertFiltered(value) && (
        <button type="button" className="secondary" onClick={() => onChange({ ...value, source: '', level: '' })}>
          Clear filter
        </button>
      )}
    </div>
  );
}
