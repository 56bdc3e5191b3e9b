import { sql } from 'kysely';
import type { StaticDialectQuirks } from '../kysely/kysely-dialect-quirks.js';

function sqliteCode(error: unknown): string {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
}

export const sqliteQuirks: StaticDialectQuirks = {
  name: 'sqlite',
  isUniqueViolation: (error) => ['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY'].includes(sqliteCode(error)),
  // RESTRICT is enforced by a trigger-like check: SQLite reports it as CONSTRAINT_TRIGGER.
  isForeignKeyViolation: (error) => ['SQLITE_CONSTRAINT_FOREIGNKEY', 'SQLITE_CONSTRAINT_TRIGGER'].includes(sqliteCode(error)),
  // A single UPDATE … WHERE id = (SELECT … LIMIT 1) is atomic under SQLite's write lock.
  writableCtes: false,
  claimLockClause: '',
  // A write transaction holds SQLite's single write lock: nothing to add per row.
  rowLockClause: '',
  lockUntilCommit: async () => {},
  // SQLite's day count in milliseconds / 1000.0: the same double as JavaScript's ms / 1000.
  epochSeconds: (at) => sql<number | null>`unixepoch(${at}, 'subsec')`,
  jsonTextField: (column, field) => sql<string | null>`json_extract(${column}, ${sql.lit(`$.${field}`)})`,
  atOrBeforeOnParent: (_parent, _parentValue, at, bound) => sql<boolean>`${at} <= ${bound}`,
};
