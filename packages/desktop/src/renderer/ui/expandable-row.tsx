import './list.css';
import type { ReactNode } from 'react';

interface ExpandableRowProps {
  open: boolean;
  /** The id of the detail's element, which the toggle controls while it is open. */
  detailId: string;
  /** What the row is, for the toggle's accessible name ("… : details"). */
  summary: string;
  onToggle: () => void;
  /** What the toggle shows in the first cell. */
  toggleText: ReactNode;
  toggleCellClass?: string;
  /** How many cells a row has, for the detail row's span. */
  columns: number;
  /** The row's cells after the first. */
  children: ReactNode;
  /** The detail, drawn only while the row is open. */
  detail: () => ReactNode;
}

/**
 * A table row whose first cell is a button that opens a detail in a row of its own under it (a
 * click anywhere on the row does the same); Enter or Space on the button, for the keyboard.
 */
export function ExpandableRow({ open, detailId, summary, onToggle, toggleText, toggleCellClass, columns, children, detail }: ExpandableRowProps) {
  return (
    <>
      <tr className="history-row" data-open={open ? 'true' : undefined} onClick={onToggle}>
        <td className={toggleCellClass}>
          <button type="button" className="row-toggle" aria-expanded={open} aria-controls={open ? detailId : undefined} aria-label={`${summary}: details`}>
            <span className="toggle-mark" aria-hidden="true">
              {open ? '▾' : '▸'}
            </span>{' '}
            {toggleText}
          </button>
        </td>
        {children}
      </tr>
      {open && (
        <tr className="job-row history-detail-row">
          <td colSpan={columns}>{detail()}</td>
        </tr>
      )}
    </>
  );
}
