import { safeIntegerRange, type ListField } from './list-query.js';

const integer: ListField = { type: 'integer' };
const nullableInteger: ListField = { type: 'integer', nullable: true };
const string: ListField = { type: 'string' };
const nullableString: ListField = { type: 'string', nullable: true };
const boolean: ListField = { type: 'boolean' };
/** A decimal amount held as text (`12.50`): filtered and sorted as a number, never with a pattern. */
const decimal: ListField = { type: 'decimal' };
const nullableDecimal: ListField = { type: 'decimal', nullable: true };
/** A `bigint` column (PostgreSQL): counters that pass 2^31. */
const bigInteger: ListField = { type: 'integer', range: safeIntegerRange };
// Timestamps are ISO-8601 text written in UTC by the core, so comparing them as text compares
// them in time (`created_at=>2030-01-01`). An API key's expires_at is kept as its client wrote
// it: in UTC (`Z`) it compares the same way.
const timestamp = string;
const nullableTimestamp = nullableString;

/** A text field that holds one of `values` only (a status, a kind): a filter on another value is a 400. */
const oneOf = (values: readonly string[], nullable = false): ListField => ({ type: 'string', oneOf: values, ...(nullable ? { nullable } : {}) });

/** The field types a resource's ListSpec is written in (domain/<resource>.ts). */
export const listFields = {
  integer,
  nullableInteger,
  string,
  nullableString,
  boolean,
  decimal,
  nullableDecimal,
  bigInteger,
  timestamp,
  nullableTimestamp,
  oneOf,
} as const;
