import { z } from 'zod';
import type { ListSpec } from '../list-query/list-query.js';
import { listFields } from '../list-query/list-fields.js';
import { listQuerySchema } from '../list-query/list-query-schema.js';
import { collectionSchema } from '../list-query/collection-schema.js';
import { auditVias, type AuditVia } from '../scopes/principal.js';

// Where a change came in is the principal's origin, declared with it in a lower layer.
export { auditVias, type AuditVia };

export const auditActorKinds = ['user', 'api_key', 'system'] as const;
export type AuditActorKind = (typeof auditActorKinds)[number];

/**
 * What was done. CRUD of every resource; the start of a job; sign-ins; keys; settings. A
 * flood of failed sign-ins is one `login_failed` event per client address (an IPv6 one by its
 * /64) and hour, whose `count` says how many (decision 112).
 */
export const auditActions = [
  'create',
  'update',
  'delete',
  'test',
  'scan',
  'login',
  'login_failed',
  'key_created',
  'key_updated',
  'key_revoked',
  'settings_changed',
  'totp_enabled',
  'totp_disabled',
  'recovery_code_used',
  'session_revoked',
] as const;
export type AuditAction = (typeof auditActions)[number];

export const auditOutcomes = ['success', 'failure'] as const;
export type AuditOutcome = (typeof auditOutcomes)[number];

/** The word a secret field's change is recorded as: that it changed, never a value (docs/decisions/084-audit-trail.md). */
export const secretChange = 'changed';

const changeSchema = z.union([z.object({ from: z.unknown(), to: z.unknown() }), z.literal(secretChange)]);
export type AuditChange = z.output<typeof changeSchema>;
export type AuditChanges = Record<string, AuditChange>;

const auditResourceSchema = z.object({
  /** The resource's path name: `nas`, `pools`, `nas_shares`, `traps`, `users`, … */
  type: z.string(),
  id: z.string().nullable(),
  name: z.string().nullable(),
});
export type AuditResource = z.output<typeof auditResourceSchema>;

export const auditEventSchema = z
  .object({
    id: z.number().int(),
    at: z.string(),
    actor: z.object({ kind: z.enum(auditActorKinds), id: z.number().int().nullable(), name: z.string() }),
    via: z.enum(auditVias),
    client_address: z.string().nullable(),
    request_id: z.string().nullable(),
    action: z.enum(auditActions),
    resource: auditResourceSchema.nullable(),
    changes: z.record(z.string(), changeSchema).nullable().describe('each changed field: {from, to}, or "changed" for a secret'),
    outcome: z.enum(auditOutcomes),
    count: z
      .number()
      .int()
      .describe(
        'how many times it happened: above 1 only for failed sign-ins, aggregated per client address (an IPv6 one by its /64) and hour whatever the user name; `changes.usernames.to` keeps the first names tried, and an event without `client_address` counts the failures of the clients beyond the hour’s bound',
      ),
  })
  .meta({ id: 'audit_event' });
export type AuditEvent = z.output<typeof auditEventSchema>;
export const auditEventCollectionSchema = collectionSchema('audit_events', auditEventSchema).meta({ id: 'audit_event_collection' });

const { integer, string, nullableString, timestamp, oneOf } = listFields;

/** Newest first unless `sort_by` says otherwise. `actor` is the actor's name. */
export const auditEventListSpec: ListSpec = {
  fields: {
    id: integer,
    at: timestamp,
    actor: { ...string, column: 'actor_name' },
    actor_kind: oneOf(auditActorKinds),
    via: oneOf(auditVias),
    action: oneOf(auditActions),
    resource_type: nullableString,
    resource_id: nullableString,
    outcome: oneOf(auditOutcomes),
  },
  filterable: ['id', 'at', 'actor', 'actor_kind', 'via', 'action', 'resource_type', 'resource_id', 'outcome'],
};
export const auditEventListQuerySchema = listQuerySchema(auditEventListSpec);
