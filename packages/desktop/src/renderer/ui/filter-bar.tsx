import './list.css';
import { useEffect, useState, type ReactNode } from 'react';

interface FilterBarProps {
  /** The search region's name: "Filter jobs". */
  label: string;
  /** Whether any part of the filter narrows the list: then Clear filter shows. */
  filtered: boolean;
  onClear: () => void;
  /** A line under the fields that the fields point to with aria-describedby. */
  hint?: { id: string; text: ReactNode };
  children: ReactNode;
}

/** The row of filter fields above a list, with Clear filter while the list is narrowed. */
export function FilterBar({ label, filtered, onClear, hint, children }: FilterBarProps) {
  return (
    <div className="storage-filter" role="search" aria-label={label}>
      {children}
      {filtered && (
        <button type="button" className="secondary" onClick={onClear}>
          Clear filter
        </button>
      )}
      {hint && (
        <span id={hint.id} className="hint">
          {hint.text}
        </span>
      )}
    </div>
  );
}

interface FilterSelectProps<V extends string> {
  label: string;
  name: string;
  value: V | '';
  /** The first option, which narrows nothing: "Any status". */
  anyLabel?: string;
  options: ReadonlyArray<readonly [V, string]>;
  onChange: (value: V | '') => void;
}

/** A choice that narrows the list at once. */
export function FilterSelect<V extends string>({ label, name, value, anyLabel, options, onChange }: FilterSelectProps<V>) {
  return (
    <label>
      {label}
      <select name={name} value={value} onChange={(event) => onChange(event.target.value as V | '')}>
        {anyLabel !== undefined && <option value="">{anyLabel}</option>}
        {options.map(([option, text]) => (
          <option key={option} value={option}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}

interface FilterSearchProps {
  label: string;
  name: string;
  /** The text the filter holds (trimmed). */
  value: string;
  onChange: (text: string) => void;
  describedBy?: string;
}

/** Text that narrows the list after a short pause, so each key typed does not ask the server again. */
export function FilterSearch({ label, name, value, onChange, describedBy }: FilterSearchProps) {
  const [text, setText] = useState(value);
  // Follows a change made elsewhere (Clear filter), keeping what is typed when it is the same filter.
  useEffect(() => setText((current) => (current.trim() === value ? current : value)), [value]);
  useEffect(() => {
    const trimmed = text.trim();
    if (trimmed === value) return;
    const timer = setTimeout(() => onChange(trimmed), 250);
    return () => clearTimeout(timer);
  }, [text, value, onChange]);
  return (
    <label>
      {label}
      <input type="search" name={name} value={text} onChange={(event) => setText(event.target.value)} autoComplete="off" aria-describedby={describedBy} />
    </label>
  );
}
