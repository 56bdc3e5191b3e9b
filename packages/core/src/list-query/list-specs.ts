import type { ListField, ListSpec } from './list-query.js';

const integer: ListField = { type: 'integer' };
const nullableInteger: ListField = { type: 'integer', nullable: true };
const string: ListField = { type: 'string' };
const nullableString: ListField = { type: 'string', nullable: true };

const shareFields = {
  id: integer,
  nas_id: integer,
  pool_id: nullableInteger,
  name: string,
  path: string,
  options: nullableString,
  username: nullableString,
  file_count: integer,
  file_size_sum: integer,
};

const commonShareFilters = ['id', 'name', 'path', 'options', 'username'] as const;

/** Endpoints 1, 8 and 12 of the spec each filter on a different set of attributes. */
export const shareListSpecs = {
  all: { fields: shareFields, filterable: [...commonShareFilters, 'nas_id', 'pool_id'], pagination: 'limit_offset' },
  nas: { fields: shareFields, filterable: [...commonShareFilters, 'pool_id'], pagination: 'limit_offset' },
  pool: { fields: shareFields, filterable: [...commonShareFilters, 'nas_id'], pagination: 'limit_offset' },
} as const satisfies Record<string, ListSpec>;

export const nasListSpec: ListSpec = {
  fields: { id: integer, name: string, host: string, type: string, comment: nullableString, price: nullableString },
  filterable: ['id', 'name', 'host', 'type', 'comment'],
  pagination: 'page',
};

export const poolListSpec: ListSpec = {
  fields: { id: integer, name: string, type: string, content: string, comment: nullableString },
  filterable: ['id', 'name', 'type', 'content', 'comment'],
  pagination: 'page',
};

export const trapListSpec: ListSpec = {
  fields: {
    snmp_trap_id: { type: 'integer', column: 'id' },
    activation: integer,
    version: string,
    manager: string,
    // No community: it is sealed at rest, so it can be neither filtered nor sorted, and a
    // filter on a secret would be an oracle for it (TrapService refuses the parameter).
    severity_low: integer,
    severity_high: integer,
  },
  filterable: ['snmp_trap_id', 'activation', 'version', 'manager', 'severity_low', 'severity_high'],
  pagination: 'page',
};

export const userListSpec: ListSpec = {
  fields: { id: integer, username: string, created_at: string },
  filterable: ['id', 'username'],
  pagination: 'page',
};

export const apiKeyListSpec: ListSpec = {
  fields: { id: integer, name: string, created_at: string, expires_at: nullableString, last_used_at: nullableString },
  filterable: ['id', 'name'],
  pagination: 'page',
};

export const corsRuleListSpec: ListSpec = {
  fields: { id: integer, path: string },
  filterable: ['id', 'path'],
  pagination: 'page',
};
