import { useCallback, useState } from 'react';

/**
 * The ticked shares: some ids, or every share matching the filter but a few unticked since
 * ("all 1,240 matching"). The second is resolved by the main process, which lists the ids
 * with the same filter, so it is never limited to the page on screen.
 */
export type ShareSelection = { kind: 'ids'; ids: ReadonlySet<number> } | { kind: 'matching'; except: ReadonlySet<number> };

const none: ShareSelection = { kind: 'ids', ids: new Set() };

export function isSelected(selection: ShareSelection, id: number): boolean {
  return selection.kind === 'ids' ? selection.ids.has(id) : !selection.except.has(id);
}

/** How many shares the selection names, `count` being how many match the filter. */
export function selectedCount(selection: ShareSelection, count: number): number {
  return selection.kind === 'ids' ? selection.ids.size : Math.max(0, count - selection.except.size);
}

/** The selection as the bulk procedures take it: ids, or the filter's parameters and the exceptions. */
export function selectionInput(selection: ShareSelection, filter: Record<string, string>) {
  return selection.kind === 'ids' ? { ids: [...selection.ids] } : { matching: filter, except: [...selection.except] };
}

function toggled(ids: ReadonlySet<number>, id: number, on: boolean): Set<number> {
  const next = new Set(ids);
  if (on) next.add(id);
  else next.delete(id);
  return next;
}

/** The screen's selection and its changes; a new filter clears it (the screen calls `clear`). */
export function useShareSelection() {
  const [selection, setSelection] = useState<ShareSelection>(none);
  const toggle = useCallback(
    (id: number, on: boolean) =>
      setSelection((current) =>
        current.kind === 'ids' ? { kind: 'ids', ids: toggled(current.ids, id, on) } : { kind: 'matching', except: toggled(current.except, id, !on) },
      ),
    [],
  );
  /** Ticks or unticks every share of the page shown. */
  const togglePage = useCallback((ids: number[], on: boolean) => {
    setSelection((current) => {
      let next = current;
      for (const id of ids) {
        next = next.kind === 'ids' ? { kind: 'ids', ids: toggled(next.ids, id, on) } : { kind: 'matching', except: toggled(next.except, id, !on) };
      }
      return next;
    });
  }, []);
  const selectAllMatching = useCallback(() => setSelection({ kind: 'matching', except: new Set() }), []);
  const clear = useCallback(() => setSelection(none), []);
  return { selection, toggle, togglePage, selectAllMatching, clear };
}
