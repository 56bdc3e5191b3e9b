/**
 * Migration 0012 on both adapters: an index on each name folded to lower case, then id, for the
 * case-insensitive filters (`name=~*proj%`, a range on `lower(name)`) and order (`sort_by=name:ci`,
 * `lower(name)` then the id tie-breaker, read forwards or backwards). The expression is the one
 * the list queries compile (kysely-list.ts): a planner uses an expression index only for that same
 * expression. `lower()` folds ASCII letters only on both adapters (SQLite's built-in, PostgreSQL's
 * on a `COLLATE "C"` column), so the index's order is the same on both.
 */
export const caseInsensitiveNameStatements: readonly string[] = [
  'create index nas_shares_name_ci on nas_shares (lower(name), id)',
  'create index nas_name_ci on nas (lower(name), id)',
  'create index pools_name_ci on pools (lower(name), id)',
];
