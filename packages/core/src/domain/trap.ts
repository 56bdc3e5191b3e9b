import { z } from 'zod';
import { strictInput } from '../validation/strict-input.js';
import type { ListSpec } from '../list-query/list-query.js';
import { collectionSchema } from '../list-query/collection-schema.js';
import { listFields } from '../list-query/list-fields.js';
import { listQuerySchema } from '../list-query/list-query-schema.js';

export const snmpVersions = ['v1', 'v2c'] as const;
export type SnmpVersion = (typeof snmpVersions)[number];

export const severityLevels = { 1: 'info', 2: 'notice', 3: 'warning', 4: 'error', 5: 'critical' } as const;
export type Severity = keyof typeof severityLevels;

const severity = z.number().int().min(1).max(5);
export const communitySchema = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[\x20-\x7e]+$/, { message: 'must be printable ASCII' });

/** host name, IPv4 or [IPv6], with an optional :port. */
const managerPattern =
  /^(?:(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*)|\d{1,3}(?:\.\d{1,3}){3}|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}))?$/;

export const managerSchema = z
  .string()
  .min(1)
  .max(261)
  .refine(
    (value) => {
      const match = managerPattern.exec(value);
      if (!match) return false;
      const port = match[1] === undefined ? 162 : Number(match[1]);
      return port >= 1 && port <= 65535;
    },
    { message: 'must be host, IPv4 or [IPv6] with an optional :port' },
  );

const trapFields = {
  activation: z.union([z.literal(0), z.literal(1)]),
  version: z.enum(snmpVersions),
  manager: managerSchema,
  community: communitySchema,
  severity_low: severity,
  severity_high: severity,
};

const trapReadOnly = { readOnly: ['snmp_trap_id'] };
export const trapCreateSchema = strictInput(
  z.object({
    activation: trapFields.activation.default(1),
    version: trapFields.version.default('v2c'),
    manager: trapFields.manager,
    community: trapFields.community.default('public'),
    severity_low: trapFields.severity_low.default(1),
    severity_high: trapFields.severity_high.default(5),
  }),
  trapReadOnly,
);
export const trapUpdateSchema = strictInput(z.object(trapFields).partial(), trapReadOnly);

export const trapSchema = z
  .object({
    snmp_trap_id: z.string().regex(/^\d+$/),
    activation: z.number().int(),
    version: z.enum(snmpVersions),
    manager: z.string(),
    community: z.string(),
    severity_low: z.number().int(),
    severity_high: z.number().int(),
  })
  .meta({ id: 'trap' });
export const trapCollectionSchema = collectionSchema('traps', trapSchema).meta({ id: 'trap_collection' });

export type TrapCreate = z.output<typeof trapCreateSchema>;
export type TrapUpdate = z.output<typeof trapUpdateSchema>;
export type Trap = z.output<typeof trapSchema>;

/** Severity band check of a complete record, run after a partial update is merged. */
export function checkSeverityBand(low: number, high: number) {
  return low <= high ? undefined : { severity_low: [{ error: 'less_than_or_equal_to' as const, count: high }] };
}

/** Splits a manager into host and port (162 unless given); IPv6 loses its brackets. */
export function parseManager(manager: string): { host: string; port: number } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(manager);
  if (bracketed) return { host: bracketed[1]!, port: bracketed[2] ? Number(bracketed[2]) : 162 };
  const [host, port] = manager.split(':');
  return { host: host!, port: port ? Number(port) : 162 };
}

// Lists: the attributes a list sorts and filters on, and the query parameters they give.
const { integer, string } = listFields;

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
export const trapListQuerySchema = listQuerySchema(trapListSpec);
