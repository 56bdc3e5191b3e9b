import { sql } from 'kysely';
import type { StaticDialectQuirks } from '../kysely/kysely-dialect-quirks.js';

function sqlState(error: unknown): string {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
}

export const postgresQuirks: StaticDialectQuirks = {
  name: 'postgres',
  isUniqueViolation: (error) => sqlState(error) === '23505',
  isForeignKeyViolation: (error) => sqlState(error) === '23503',
  // Several replicas claim from one queue: a row another one is claiming is passed over.
  writableCtes: true,
  claimLockClause: 'for update skip locked',
  // Read-then-write checks lock the rows they read, so a concurrent writer waits its turn.
  rowLockClause: 'for update',
  async lockUntilCommit(trx, name) {
    await sql`select pg_advisory_xact_lock(hashtext(${name}))`.execute(trx);
  },
  // The exact decimal seconds (microseconds kept) to the nearest double: JavaScript's ms / 1000.
  epochSeconds: (at) => sql<number | null>`extract(epoch from (${at})::timestamptz)::float8`,
  jsonTextField: (column, field) => sql<string | null>`((${column})::json ->> ${sql.lit(field)})`,
  atOrBeforeOnParent: (parent, parentValue, at, bound) => sql<boolean>`(${parent}, ${at}) <= (${parentValue}, ${bound})`,
};
