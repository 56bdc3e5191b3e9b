import { z } from 'zod';
import { strictInput } from '../validation/strict-input.js';
import type { ListSpec } from '../list-query/list-query.js';
import { collectionSchema } from '../list-query/collection-schema.js';
import { listFields } from '../list-query/list-fields.js';
import { listQuerySchema } from '../list-query/list-query-schema.js';
import {
  authProtocolSchema,
  passphraseSchema,
  privProtocolSchema,
  securityLevelSchema,
  securityLevels,
  securityNameSchema,
  checkV3Security,
  normalizeV3Security,
  v3SecurityWarnings,
  type AuthProtocol,
  type PrivProtocol,
  type SecurityLevel,
  type V3SecurityProblem,
} from './snmp-v3-security.js';
import type { ErrorDetails } from '../errors/domain-error.js';

export const snmpVersions = ['v1', 'v2c'] as const;
export type SnmpVersion = (typeof snmpVersions)[number];
/** A trap target's versions: the agent's (v1, v2c) and v3 with user-based security (docs/decisions/052-snmp-v3.md). */
export const trapVersions = ['v1', 'v2c', 'v3'] as const;
export type TrapVersion = (typeof trapVersions)[number];
/** An inform is acknowledged by the manager and retried until it is; v1 has no informs. */
export const notifyTypes = ['trap', 'inform'] as const;
export type NotifyType = (typeof notifyTypes)[number];

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
  version: z.enum(trapVersions),
  manager: managerSchema,
  community: communitySchema,
  severity_low: severity,
  severity_high: severity,
  notify_type: z.enum(notifyTypes),
};

/**
 * The v3 fields (docs/decisions/052-snmp-v3.md), nullable: which ones a target needs depends on its version and
 * security level, checked on the whole record once a partial update is merged (checkTrapV3).
 */
const trapV3Fields = {
  security_name: securityNameSchema.nullable(),
  security_level: securityLevelSchema.nullable(),
  auth_protocol: authProtocolSchema.nullable(),
  auth_passphrase: passphraseSchema.nullable().meta({ description: 'A secret: sealed at rest, returned only with the scope traps / get_password.' }),
  priv_protocol: privProtocolSchema.nullable(),
  priv_passphrase: passphraseSchema.nullable().meta({ description: 'A secret: sealed at rest, returned only with the scope traps / get_password.' }),
};

const trapReadOnly = { readOnly: ['snmp_trap_id', 'messages'] };
export const trapCreateSchema = strictInput(
  z.object({
    activation: trapFields.activation.default(1),
    version: trapFields.version.default('v2c'),
    manager: trapFields.manager,
    community: trapFields.community.default('public'),
    severity_low: trapFields.severity_low.default(1),
    severity_high: trapFields.severity_high.default(5),
    notify_type: trapFields.notify_type.default('trap'),
    ...z.object(trapV3Fields).partial().shape,
  }),
  trapReadOnly,
);
export const trapUpdateSchema = strictInput(z.object({ ...trapFields, ...trapV3Fields }).partial(), trapReadOnly);

const nullableText = z.string().nullable();
export const trapSchema = z
  .object({
    snmp_trap_id: z.string().regex(/^\d+$/),
    activation: z.number().int(),
    version: z.enum(trapVersions),
    manager: z.string(),
    community: z.string(),
    severity_low: z.number().int(),
    severity_high: z.number().int(),
    notify_type: z.enum(notifyTypes),
    security_name: nullableText.describe('v3: the USM user name; null for v1 and v2c'),
    security_level: z.enum(securityLevels).nullable(),
    auth_protocol: nullableText,
    auth_passphrase: z.string().nullable().optional().describe('Present only with the scope traps / get_password (explicit: a `*` action does not grant it).'),
    priv_protocol: nullableText,
    priv_passphrase: z.string().nullable().optional().describe('Present only with the scope traps / get_password (explicit: a `*` action does not grant it).'),
    messages: z.array(z.string()).optional().describe('Warnings about an allowed but weak choice (auth_protocol SHA-1); absent when there are none.'),
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

/** How a target notifies and, for v3, as whom: the fields checked together on a merged record. */
export interface TrapNotification {
  version: TrapVersion;
  notify_type: NotifyType;
  security_name: string | null;
  security_level: SecurityLevel | null;
  auth_protocol: AuthProtocol | null;
  auth_passphrase: string | null;
  priv_protocol: PrivProtocol | null;
  priv_passphrase: string | null;
}

export const trapV3FieldNames = ['security_name', 'security_level', 'auth_protocol', 'auth_passphrase', 'priv_protocol', 'priv_passphrase'] as const;

/**
 * Whether a merged record can notify: v1 has no informs; v1 and v2c take no v3 field (sent
 * non-null is refused, not dropped); v3 needs a user, a level and what the level needs.
 */
export function checkTrapNotification(record: TrapNotification, sent: Partial<TrapNotification>): V3SecurityProblem | undefined {
  const details: ErrorDetails = {};
  const messages: string[] = [];
  if (record.version === 'v1' && record.notify_type === 'inform') {
    details['notify_type'] = [{ error: 'invalid', value: 'inform' }];
    messages.push('notify_type inform needs version v2c or v3 (SNMPv1 has no informs); with v1 the allowed value is trap');
  }
  if (record.version !== 'v3') {
    for (const field of trapV3FieldNames) {
      if (sent[field] === undefined || sent[field] === null) continue;
      details[field] = [{ error: 'invalid' }];
      messages.push(`${field} is used only with version v3 (send null or leave it out with ${record.version})`);
    }
  } else {
    if (record.security_name == null) {
      details['security_name'] = [{ error: 'blank' }];
      messages.push("security_name can't be blank with version v3");
    }
    if (record.security_level == null) {
      details['security_level'] = [{ error: 'blank' }];
      messages.push(`security_level can't be blank with version v3 (allowed: ${securityLevels.join(', ')})`);
    } else {
      const { auth_protocol, auth_passphrase, priv_protocol, priv_passphrase } = sent;
      const problem = checkV3Security(
        { ...record, security_name: record.security_name ?? '', security_level: record.security_level },
        { auth_protocol, auth_passphrase, priv_protocol, priv_passphrase },
      );
      if (problem) {
        Object.assign(details, problem.details);
        messages.push(...problem.messages);
      }
    }
  }
  return messages.length === 0 ? undefined : { details, messages };
}

/** The record with what its version and level do not use cleared (a v3 target moved to v2c forgets its passphrases). */
export function normalizeTrapNotification<T extends TrapNotification>(record: T): T {
  if (record.version !== 'v3') return { ...record, ...noV3 };
  if (record.security_level === null) return record;
  const { auth_protocol, auth_passphrase, priv_protocol, priv_passphrase } = normalizeV3Security({
    ...record,
    security_name: record.security_name ?? '',
    security_level: record.security_level,
  });
  return { ...record, auth_protocol, auth_passphrase, priv_protocol, priv_passphrase };
}
const noV3 = { security_name: null, security_level: null, auth_protocol: null, auth_passphrase: null, priv_protocol: null, priv_passphrase: null };

/** Warnings of a stored target, for the answer's `messages`. */
export function trapWarnings(trap: Pick<TrapNotification, 'version' | 'auth_protocol'>): string[] {
  return trap.version === 'v3' ? v3SecurityWarnings(trap) : [];
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
    notify_type: listFields.oneOf(notifyTypes),
    security_name: listFields.nullableString,
  },
  filterable: ['snmp_trap_id', 'activation', 'version', 'manager', 'severity_low', 'severity_high', 'notify_type', 'security_name'],
};
export const trapListQuerySchema = listQuerySchema(trapListSpec);
