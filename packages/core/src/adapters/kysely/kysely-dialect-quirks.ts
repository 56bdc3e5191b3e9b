/** What differs between the SQL adapters; everything else is shared Kysely code. */
export interface DialectQuirks {
  readonly name: 'sqlite' | 'postgres';
  isUniqueViolation(error: unknown): boolean;
  isForeignKeyViolation(error: unknown): boolean;
  /** Appended to the claim sub-select (`for update skip locked` on PostgreSQL). */
  readonly claimLockClause: string;
}
