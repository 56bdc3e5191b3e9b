import type { Generated, Selectable } from 'kysely';
import type { SilenceMatchers } from '../domain/silence.js';
import { columnsOf } from './columns.js';
import type { JsonText } from './json-text.js';

/** A silence (docs/api.md#silences): what it matches, when, and the window it holds now or next. */
export interface SilenceTable {
  id: Generated<number>;
  matchers: JsonText<SilenceMatchers>;
  starts_at: string;
  ends_at: string | null;
  rrule: string | null;
  duration_seconds: number | null;
  /** 0 or 1: ends when an alert it matches clears. */
  until_cleared: number;
  reason: string;
  created_by: number | null;
  /**
   * The window it holds now or next (docs/decisions/171-silences.md): its start and end for a
   * fixed one, an occurrence of its rule for an rrule one (moved on after each), null once over.
   */
  window_starts_at: string | null;
  window_ends_at: string | null;
  created_at: string;
  updated_at: string;
}

export type SilenceRow = Selectable<SilenceTable>;
export const silenceColumns = columnsOf<SilenceRow>({
  id: true,
  matchers: true,
  starts_at: true,
  ends_at: true,
  rrule: true,
  duration_seconds: true,
  until_cleared: true,
  reason: true,
  created_by: true,
  window_starts_at: true,
  window_ends_at: true,
  created_at: true,
  updated_at: true,
});
