import type { ListPage, ListQuery } from '../list-query/list-query.js';
import type { SilenceMatchers } from '../domain/silence.js';
import type { SilenceRow } from '../tables/silences.table.js';

/** A silence as the core sees it: matchers parsed, until_cleared a boolean. */
export interface SilenceRecord extends Omit<SilenceRow, 'matchers' | 'until_cleared'> {
  matchers: SilenceMatchers;
  until_cleared: boolean;
}
export type SilenceInsert = Omit<SilenceRecord, 'id' | 'created_at' | 'updated_at'>;
export type SilencePatch = Partial<Omit<SilenceInsert, 'created_by'>>;

/** A window: when it opens and closes (null: when its alert clears). */
export interface SilenceWindow {
  window_starts_at: string;
  window_ends_at: string | null;
}

/**
 * Silences (docs/api.md#silences) and their windows. A window is moved on by whichever replica
 * looks first: `moveWindow` changes it only from the window it was read with.
 */
export interface SilenceStore {
  list(query: ListQuery): Promise<ListPage<SilenceRecord>>;
  get(id: number): Promise<SilenceRecord | undefined>;
  count(): Promise<number>;
  create(values: SilenceInsert): Promise<SilenceRecord>;
  update(id: number, patch: SilencePatch): Promise<SilenceRecord | undefined>;
  delete(id: number): Promise<boolean>;
  /** The silences whose window holds `at`. */
  activeAt(at: string): Promise<SilenceRecord[]>;
  /** The rrule silences whose window closed at or before `at` (their next one is due). */
  windowsOver(at: string): Promise<SilenceRecord[]>;
  /** Sets the window of a silence still at window end `from`; null: no window left. Resolves whether it moved it. */
  moveWindow(id: number, from: string | null, window: SilenceWindow | null): Promise<boolean>;
  /** Ends at `at` those of `ids` that last until their alert clears and still do. */
  endUntilCleared(ids: readonly number[], at: string): Promise<void>;
}
