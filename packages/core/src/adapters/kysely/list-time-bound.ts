import type { Kysely, RawBuilder, SqlBool } from 'kysely';
import { DomainError } from '../../errors/domain-error.js';
import type { Database } from './kysely-schema.js';

/**
 * How long each statement of a list whose filters scan (a pattern that is not a prefix range)
 * may run before it is cancelled (docs/decisions/103-list-time-bound.md). The bounds on a
 * pattern (list-query/parse-list-query.ts) make one row cheap; this bounds the rows.
 */
export interface ListTimeBound {
  readonly ms: number;
  /**
   * Runs a scanning list's statements within the bound. `rowCheck` gives each statement a
   * condition to start its WHERE clause with (SQLite: the clock read on every row).
   */
  run<T>(db: Kysely<Database>, work: (db: Kysely<Database>, rowCheck: () => RawBuilder<SqlBool> | undefined) => Promise<T>): Promise<T>;
  /** Whether `error` is this bound cancelling a statement. */
  cancelled(error: unknown): boolean;
}

/**
 * A list cancelled by its time bound: a 400 naming the bound, like the bounds checked before a
 * list runs. Not a 503: the same filters over the same rows would run as long again, and a
 * retry would only repeat the cost; narrower filters are what helps.
 */
export function listTimeBoundExceeded(field: string, ms: number, cause: unknown): DomainError {
  return new DomainError(
    'bad_request',
    `the list's filters ran past ${ms} ms, the bound of a list with a pattern other than a prefix (~ !~ ~* !~*): narrow them (a plain prefix abc%, a longer literal, or another filter)`,
    { details: { [field]: [{ error: 'invalid' }] }, cause },
  );
}
