import { safeIntegerRange, type ListField, type ListSpec } from './list-query.js';

const integer: ListField = { type: 'integer' };
const nullableInteger: ListField = { type: 'integer', nullable: true };
const string: ListField = { type: 'string' };
const nullableString: ListField = { type: 'string', nullable: true };
const boolean: ListField = { type: 'boolean' };
/** A `bigint` column (PostgreSQL): counters that pass 2^31. */
const bigInteger: ListField = { type: 'integer', range: safeIntegerRange };
// Timestamps are ISO-8601 text written in UTC by the core, so comparing them as text compares
// them in time (`created_at=>2030-01-01`). An API key's expires_at is kept as its client wrote
// it: in UTC (`Z`) it compares the same way.
const timestamp = string;
const nullableTimestamp = nullableString;

const shareFields = {
  id: integer,
  nas_id: integer,
  pool_id: nullableInteger,
  name: string,
  path: string,
  options: nullableString,
  username: nullableString,
  file_count: bigInteger,
  file_size_sum: bigInteger,
};

const commonShareFilters = ['id', 'name', 'path', 'options', 'username'] as const;

/**
 * Endpoints 1, 8 and 12 of the spec each filter on a different set of attributes: a list
 * under a NAS does not filter on nas_id, a list under a pool not on pool_id.
 */
export const shareListSpecs = {
  all: { fields: shareFields, filterable: [...commonShareFilters, 'nas_id', 'pool_id'] },
  nas: { fields: shareFields, filterable: [...commonShareFilters, 'pool_id'] },
  pool: { fields: shareFields, filterable: [...commonShareFilters, 'nas_id'] },
} as const satisfies Record<string, ListSpec>;

// Price is a decimal held as text: it sorts as text, and is not a filter because `>` and `<`
// would compare it as text too.
export const nasListSpec: ListSpec = {
  fields: { id: integer, name: string, host: string, type: string, comment: nullableString, price: nullableString },
  filterable: ['id', 'name', 'host', 'type', 'comment'],
};

export const poolListSpec: ListSpec = {
  fields: { id: integer, name: string, type: string, content: string, comment: nullableString, primary_id: nullableInteger },
  filterable: ['id', 'name', 'type', 'content', 'comment', 'primary_id'],
};

export const trapListSpec: ListSpec = {
  fields: {
    snmp_trap_id: { type: 'integer', column: 'id' },
    activation: integer,
    version: string,
    manager: string,
    // No community: it is sealed at rest, so it can be neither filtered nor sorted, and a
    // filter on a secret would be an oracle for it (the list parser refuses the parameter).
    severity_low: integer,
    severity_high: integer,
  },
  filterable: ['snmp_trap_id', 'activation', 'version', 'manager', 'severity_low', 'severity_high'],
};

export const userListSpec: ListSpec = {
  fields: { id: integer, username: string, admin: boolean, created_at: timestamp },
  filterable: ['id', 'username', 'admin', 'created_at'],
};

export const apiKeyListSpec: ListSpec = {
  fields: { id: integer, name: string, created_at: timestamp, expires_at: nullableTimestamp, last_used_at: nullableTimestamp },
  filterable: ['id', 'name', 'created_at', 'expires_at', 'last_used_at'],
};

// origins and methods are JSON lists in one column each: no sort or filter on them.
export const corsRuleListSpec: ListSpec = {
  fields: { id: integer, path: string },
  filterable: ['id', 'path'],
};
