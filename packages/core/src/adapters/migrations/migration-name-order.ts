/**
 * How Kysely's Migrator orders migrations applied at the same instant: by their names' code
 * units, the order its own list of migrations is sorted in (`Array.prototype.sort`). Its default,
 * `localeCompare`, maps about 2 MB of ICU's collation data into the service's resident memory at
 * each start of a database whose migrations were applied together (the same timestamp), for
 * names that are ASCII (docs/decisions/188-…).
 */
export function migrationNameOrder(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
