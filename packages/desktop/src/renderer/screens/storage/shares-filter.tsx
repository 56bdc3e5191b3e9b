import { useCallback } from 'react';
import type { ShareHealth } from '@dms/core';
import { optionsOf } from '../../labels/storage-labels.js';
import { FilterBar, FilterSearch, FilterSelect } from '../../ui/filter-bar.js';
import { shareHealthLabels } from '../../labels/watch-labels.js';

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
  const setName = useCallback((name: string) => onChange({ ...value, name }), [value, onChange]);
  return (
    <FilterBar
      label="Filter shares"
      filtered={isShareFiltered(value)}
      onClear={() => onChange(noFilter)}
      hint={{ id: 'share-filter-hint', text: 'Upper and lower case alike (A–Z); % matches any text and _ one character.' }}
    >
      <FilterSearch label="Name contains" name="filter-name" value={value.name} onChange={setName} describedBy="share-filter-hint" />
      <FilterSelect
        label="NAS"
        name="filter-nas"
        value={value.nasId}
        anyLabel="All NAS"
        options={nas.map((item) => [String(item.id), item.name] as const)}
        onChange={(nasId) => onChange({ ...value, nasId })}
      />
      <FilterSelect
        label="Health"
        name="filter-health"
        value={value.health}
        anyLabel="Any health"
        options={optionsOf(shareHealthLabels)}
        onChange={(health) => onChange({ ...value, health })}
      />
    </FilterBar>
  );
}
