import { useCallback } from 'react';
import type { AuditAction, AuditVia } from '@dms/core';
import { optionsOf } from '../../labels/storage-labels.js';
import { FilterBar, FilterSearch, FilterSelect } from '../../ui/filter-bar.js';
import { auditActionLabels, auditViaLabels, resourceTypeLabel } from '../../labels/history-labels.js';

/** What the audit log is narrowed to; '' is "any". `since` is a local date and time (datetime-local). */
export interface AuditFilter {
  action: AuditAction | '';
  resourceType: string;
  actor: string;
  via: AuditVia | '';
  since: string;
}

export const noAuditFilter: AuditFilter = { action: '', resourceType: '', actor: '', via: '', since: '' };

/**
 * The filter as the core's list contract takes it: `action=update`, `resource_type=nas`,
 * `actor=~%adm%` (a part of the name; `%` and `_` are the pattern's wildcards), `via=console`,
 * `at=>=2026-11-25T08:00:00.000Z` (the local time the user picked, in UTC as events are stored).
 */
export function auditFilterParams(filter: AuditFilter): Record<string, string> {
  const since = filter.since ? new Date(filter.since) : undefined;
  return {
    ...(filter.action ? { action: filter.action } : {}),
    ...(filter.resourceType ? { resource_type: filter.resourceType } : {}),
    ...(filter.actor ? { actor: `~%${filter.actor}%` } : {}),
    ...(filter.via ? { via: filter.via } : {}),
    ...(since && !Number.isNaN(since.getTime()) ? { at: `>=${since.toISOString()}` } : {}),
  };
}

/** Whether any part of the filter narrows the log. */
export function isAuditFiltered(filter: AuditFilter): boolean {
  return Object.values(filter).some((value) => value !== '');
}

/** A choice narrows the log at once; typing a name narrows it after a short pause. Resource offers only the types the log holds. */
export function AuditFilterBar({
  value,
  onChange,
  resourceTypes,
}: {
  value: AuditFilter;
  onChange: (filter: AuditFilter) => void;
  /** The resource types the log has events of (the one chosen stays offered). */
  resourceTypes: readonly string[];
}) {
  const types = value.resourceType && !resourceTypes.includes(value.resourceType) ? [...resourceTypes, value.resourceType] : resourceTypes;
  const setActor = useCallback((actor: string) => onChange({ ...value, actor }), [value, onChange]);
  return (
    <FilterBar
      label="Filter the audit log"
      filtered={isAuditFiltered(value)}
      onClear={() => onChange(noAuditFilter)}
      hint={{ id: 'audit-filter-hint', text: 'Actor: a user’s or API key’s name, case-sensitive. Since: your local time.' }}
    >
      <FilterSelect
        label="Action"
        name="filter-action"
        value={value.action}
        anyLabel="Any action"
        options={optionsOf(auditActionLabels)}
        onChange={(action) => onChange({ ...value, action })}
      />
      <FilterSelect
        label="Resource"
        name="filter-resource-type"
        value={value.resourceType}
        anyLabel="Any resource"
        options={types.map((type) => [type, resourceTypeLabel(type)] as const)}
        onChange={(resourceType) => onChange({ ...value, resourceType })}
      />
      <FilterSearch label="Actor contains" name="filter-actor" value={value.actor} onChange={setActor} describedBy="audit-filter-hint" />
      <FilterSelect
        label="Via"
        name="filter-via"
        value={value.via}
        anyLabel="Any way in"
        options={optionsOf(auditViaLabels)}
        onChange={(via) => onChange({ ...value, via })}
      />
      <label>
        Since
        <input type="datetime-local" name="filter-since" value={value.since} onChange={(event) => onChange({ ...value, since: event.target.value })} />
      </label>
    </FilterBar>
  );
}
