import type { AlertSource } from '@dms/core';
import { optionsOf } from '../../labels/storage-labels.js';
import { severityNames } from '../../labels/snmp-choices.js';
import { FilterBar, FilterSelect } from '../../ui/filter-bar.js';
import { alertSourceLabels } from '../../labels/watch-labels.js';

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
    <FilterBar label="Filter alerts" filtered={isAlertFiltered(value)} onClear={() => onChange({ ...value, source: '', level: '' })}>
      <FilterSelect
        label="Show"
        name="filter-state"
        value={value.state}
        options={[
          ['open', 'Open alerts'],
          ['all', 'All alerts, cleared too'],
        ]}
        onChange={(state) => onChange({ ...value, state: state || 'open' })}
      />
      <FilterSelect
        label="Source"
        name="filter-source"
        value={value.source}
        anyLabel="Any source"
        options={optionsOf(alertSourceLabels)}
        onChange={(source) => onChange({ ...value, source })}
      />
      <FilterSelect
        label="Level"
        name="filter-level"
        value={value.level}
        anyLabel="Any level"
        options={lowestLevels}
        onChange={(level) => onChange({ ...value, level })}
      />
    </FilterBar>
  );
}
