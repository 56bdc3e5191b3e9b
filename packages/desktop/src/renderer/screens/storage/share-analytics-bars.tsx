import type { ReactNode } from 'react';

export interface Bar {
  key: string;
  /** What the bar is, in words: also what a screen reader reads. */
  label: string;
  /** The value in words, beside the label. */
  detail: string;
  value: number;
  /** Set when the bar opens something (a directory's subdirectories): it is then a button. */
  onOpen?: () => void;
  openLabel?: string;
}

/**
 * Sorted horizontal bars as a list: each bar's words are its text, the bar itself a picture of
 * them (hidden from screen readers). A bar that opens something is a button, reached with Tab and
 * pressed with Enter or Space like any other.
 */
export function BarList({ bars, label, empty }: { bars: readonly Bar[]; label: string; empty: ReactNode }) {
  if (bars.length === 0) return <p className="hint">{empty}</p>;
  const largest = Math.max(1, ...bars.map((bar) => bar.value));
  return (
    <ul className="analytics-bars" aria-label={label}>
      {bars.map((bar) => {
        const words = (
          <>
            <span className="analytics-bar-label">{bar.label}</span> <span className="analytics-bar-detail">{bar.detail}</span>
          </>
        );
        return (
          <li key={bar.key}>
            {bar.onOpen ? (
              <button type="button" className="analytics-bar-open" onClick={bar.onOpen} aria-label={bar.openLabel}>
                {words}
              </button>
            ) : (
              <span className="analytics-bar-text">{words}</span>
            )}
            <span className="analytics-bar-track" aria-hidden="true">
              <span className="analytics-bar-fill" style={{ inlineSize: `${bar.value === 0 ? 0 : Math.max(0.5, (bar.value / largest) * 100)}%` }} />
            </span>
          </li>
        );
      })}
    </ul>
  );
}

/** The switch between a chart and its table, named for what it switches. */
export function TableToggle({ asTable, onToggle, what }: { asTable: boolean; onToggle: () => void; what: string }) {
  return (
    <button type="button" className="secondary" aria-pressed={asTable} onClick={onToggle}>
      Show {what} as table
    </button>
  );
}
