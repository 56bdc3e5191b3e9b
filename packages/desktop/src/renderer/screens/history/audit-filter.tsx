import { useEffect, useState } from 'react';
import type { AuditAction, AuditVia } from '@dms/core';
import { optionsOf } from '../storage/labels.js';
import { auditActionLabels, auditViaLabels, resourceTypeLabels } from './history-labels.js';

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

/** A choice narrows the log at once; typing a name narrows it after a short pause. */
export function AuditFilterBar({ value, onChange }: { value: AuditFilter; onChange: (filter: AuditFilter) => void }) {
  const [actor, setActor] = useState(value.actor);
  // Follows a change made elsewhere (Clear filter), keeping what is typed when it is the same filter.
  useEffect(() => setActor((current) => (current.trim() === value.actor ? current : value.actor)), [value.actor]);
  useEffect(() => {
    const trimmed = actor.trim();
    if (trimmed === value.actor) return;
    const timer = setTimeout(() => onChange({ ...value, actor: trimmed }), 250);
    return () => clearTimeout(timer);
  }, [actor, value, onChange]);
  return (
    <div className="storage-filter" role="search" aria-label="Filter the audit log">
      <label>
        Action
        <select name="filter-action" value={value.action} onChange={(event) => onChange({ ...value, action: event.target.value as AuditFilter['action'] })}>
          <option value="">Any action</option>
          {optionsOf(auditActionLabels).map(([action, label]) => (
            <option key={action} value={action}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Resource
        <select name="filter-resource-type" value={value.resourceType} onChange={(event) => onChange({ ...value, resourceType: event.target.value })}>
          <option value="">Any resource</option>
          {Object.entries(resourceTypeLabels).map(([type, label]) => (
            <option key={type} value={type}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Actor contains
        <input
          type="search"
          name="filter-actor"
          value={actor}
          onChange={(event) => setActor(event.target.value)}
          autoComplete="off"
          aria-describedby="audit-filter-hint"
        />
      </label>
      <label>
        Via
        <select name="filter-via" value={value.via} onChange={(event) => onChange({ ...value, via: event.target.value as AuditFilter['via'] })}>
          <option value="">Any way in</option>
          {optionsOf(auditViaLabels).map(([via, label]) => (
            <option key={via} value={via}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Since
        <input type="datetime-local" name="filter-since" value={value.since} onChange={(event) => onChange({ ...value, since: event.target.value })} />
      </label>
      {isAuditFiltered(value) && (
        <button type="button" className="secondary" onClick={() => onChange(noAuditFilter)}>
          Clear filter
        </button>
      )}
      <span id="audit-filter-hint" className="hint">
        Actor: a user’s or API key’s name, case-sensitive. Since: your local time.
      </span>
    </div>
  );
}
