import type { RawBuilder, Transaction } from 'kysely';
import type { Database } from './kysely-schema.js';
import type { ListTimeBound } from './list-time-bound.js';

/** What differs between the SQL adapters; everything else is shared Kysely code. */
export interface DialectQuirks {
  readonly name: 'sqlite' | 'postgres';
  isUniqueViolation(error: unknown): boolean;
  isForeignKeyViolation(error: unknown): boolean;
  /** Whether a statement may write in its WITH clause (PostgreSQL): a job's finish and the next claim in one. */
  readonly writableCtes: boolean;
  /** Appended to the claim sub-select (`for update skip locked` on PostgreSQL). */
  readonly claimLockClause: string;
  /** Appended to a read whose rows a check-then-write in the same transaction relies on (`for update`). */
  readonly rowLockClause: string;
  /**
   * Holds a named lock until `trx` ends, for a check no row lock covers (a count before an
   * insert): a transaction-scoped advisory lock on PostgreSQL; nothing on SQLite, whose
   * single writer already runs one such transaction at a time.
   */
  lockUntilCommit(trx: Transaction<Database>, name: string): Promise<void>;
  /**
   * A stored time (ISO 8601 text) as Unix seconds with its milliseconds, exactly as
   * `Date.parse(at) / 1000`; null stays null. Read by the database: 30,000 of them a scrape.
   */
  epochSeconds(at: RawBuilder<string | null>): RawBuilder<number | null>;
  /** A text field of a JSON text column, null where the column or the field is. */
  jsonTextField(column: RawBuilder<string | null>, field: string): RawBuilder<string | null>;
  /**
   * `at <= bound` among the rows of one parent (`parent = parentValue` is said beside it), in
   * the form that lets a (parent, at) index bound the search. PostgreSQL: the row value
   * `(parent, at) <= (parentValue, bound)`, which no index on `at` alone can take: with few rows
   * before the bound its estimate picked such an index and walked it back for every parent.
   * SQLite bounds (parent, at) by the plain comparison and would only filter a row value.
   */
  atOrBeforeOnParent(parent: RawBuilder<unknown>, parentValue: RawBuilder<unknown>, at: RawBuilder<unknown>, bound: string): RawBuilder<boolean>;
  /** How a list whose filters scan is kept within its time bound (list-time-bound.ts). */
  readonly listTimeBound: ListTimeBound;
}

/** What a dialect's quirks are before its storage opens (the list time bound needs its connection). */
export type StaticDialectQuirks = Omit<DialectQuirks, 'listTimeBound'>;
