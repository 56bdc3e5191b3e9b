import type { ReactNode } from 'react';

/** What an empty list shows: that it is empty, and what to do next. */
export function EmptyState({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="empty" role="status">
      <p className="empty-title">{title}</p>
      <p>{children}</p>
    </div>
  );
}
