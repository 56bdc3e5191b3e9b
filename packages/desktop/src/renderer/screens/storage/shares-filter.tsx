import { useEffect, useState } from 'react';
import type { ShareHealth } from '@dms/core';
import { optionsOf } from './labels.js';
import { shareHealthLabels } from '../watch/watch-labels.js';

/** What the shares table is narrowed to: a part of the name, one NAS (its id) and one health, or every one (''). */
export interface ShareFilter {
  name: string;
  nasId: string;
  health: ShareHealth | '';
}

export const noFilter: ShareFilter = { name: '', nasId: '', health: '' };

/** Whether any part of the filter narrows the list. */
export function isShareFiltered(filter: ShareFilter): boolean {
  return Object.values(filter).some((value) => value !== '');
}

/** A health the address names (`#/shares?health=unreachable`, the overview's links), or none. */
export function healthParam(value: string | null): ShareHealth | '' {
  return value !== null && value in shareHealthLabels ? (value as ShareHealth) : '';
}

/**
 * The filter as the core's list contract takes it (docs/api.md#lists): `name=~*%text%` (`%` and `_`
 * are the pattern's wildcards, and `~*` ignores the case of ASCII letters, so `proj` finds
 * `Proj-000`), `nas_id=ID` and `health=unreachable`.
 */
export function filterParams(filter: ShareFilter): Record<string, string> {
  return {
    ...(filter.name ? { name: `~*%${filter.name}%` } : {}),
    ...(filter.nasId ? { nas_id: filter.nasId } : {}),
    ...(filter.health ? { health: filter.health } : {}),
  };
}

/** Typing narrows the table after a short pause; choosing a NAS or a health narrows it at once. */
export function SharesFilter({
  nas,
  value,
  onChange,
}: {
  nas: Array<{ id: number; name: string }>;
  value: ShareFilter;
  onChange: (filter: ShareFilter) => void;
}) {
  const [text, setText] = useState(value.name);
  // Follows a change made elsewhere (Clear filter), keeping what is typed when it is the same filter.
  useEffect(() => setText((current) => (current.trim() === value.name ? current : value.name)), [value.name]);
  useEffect(() => {
    const trimmed = text.trim();
    if (trimmed === value.name) return;
    const timer = setTimeout(() => onChange({ ...value, name: trimmed }), 250);
    return () => clearTimeout(timer);
  }, [text, value, onChange]);
  return (
    <div className="storage-filter" role="search" aria-label="Filter shares">
      <label>
        Name contains
        <input
          type="search"
          name="filter-name"
          value={text}
          onChange={(event) => setText(event.target.value)}
          autoComplete="off"
          aria-describedby="share-filter-hint"
        />
      </label>
      <label>
        NAS
        <select name="filter-nas" value={value.nasId} onChange={(event) => onChange({ ...value, nasId: event.target.value })}>
          <option value="">All NAS</option>
          {nas.map((item) => (
            <option key={item.id} value={String(item.id)}>
              {item.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        Health
        <select name="filter-health" value={value.health} onChange={(event) => onChange({ ...value, health: event.target.value as ShareFilter['health'] })}>
          <option value="">Any health</option>
          {optionsOf(shareHealthLabels).map(([health, label]) => (
            <option key={health} value={health}>
              {label}
            </option>
          ))}
        </select>
      </label>
      {isShareFiltered(value) && (
        <button type="button" className="secondary" onClick={() => onChange(noFilter)}>
          Clear filter
        </button>
      )}
      <span id="share-filter-hint" className="hint">
        Upper and lower case alike (A–Z); % matches any text and _ one character.
      </span>
    </div>
  );
}
