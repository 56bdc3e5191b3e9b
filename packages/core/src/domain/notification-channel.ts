import { z } from 'zod';
import { hostPattern, idSchema, resourceName, text } from './common.js';
import { alertSources } from './alert.js';
import { strictInput } from '../validation/strict-input.js';
import type { ListSpec } from '../list-query/list-query.js';
import { listFields } from '../list-query/list-fields.js';
import { collectionSchema } from '../list-query/collection-schema.js';

/** Where dms can tell people (docs/api.md#notification-channels). */
export const channelTypes = ['webhook', 'email', 'ntfy', 'slack', 'discord', 'teams', 'syslog', 'alertmanager'] as const;
export type ChannelType = (typeof channelTypes)[number];

/**
 * What the dispatcher sends on: the API's types, and an SNMP trap target's queue (made by the
 * core for `/snmp/traps`, never listed or managed as a channel: docs/decisions/174-snmp-traps-as-a-channel.md).
 */
export type DispatchChannelType = ChannelType | 'snmp_trap';

/** The names of the trap targets' channel rows (`snmp_trap/<id>`): refused to a channel of the API's. */
export const trapChannelPrefix = 'snmp_trap/';

/**
 * When a channel sends: each event as it happens, or one digest an hour (on the hour) or a day
 * (at `digest_hour`, UTC) listing the period's events (docs/decisions/173-notification-digests.md).
 */
export const channelDigests = ['immediately', 'hourly', 'daily'] as const;
export type ChannelDigest = (typeof channelDigests)[number];

/** The job outcomes a channel may receive beside the alert sources (the events traps carry today). */
export const jobEventSources = ['share_test_completed', 'share_test_failed', 'share_scan_completed', 'share_scan_failed'] as const;
export type JobEventSource = (typeof jobEventSources)[number];

/** What a channel's `sources` may name: an alert source or a job outcome. */
export const notificationSources = [...alertSources, ...jobEventSources] as readonly string[];

/** The `type` of a webhook body (and of every message a channel sends). */
export const notificationEventTypes = ['alert.raised', 'alert.updated', 'alert.cleared', 'job.completed', 'job.failed', 'test', 'digest'] as const;
export type NotificationEventType = (typeof notificationEventTypes)[number];

/** Most bytes of a URL dms will POST to. */
export const maxChannelUrlLength = 2_048;

/** An http(s) URL with no credentials in it: where dms will POST (any other scheme is refused). */
export const channelUrl = z
  .string()
  .min(1)
  .max(maxChannelUrlLength)
  .refine(
    (value) => {
      if (!URL.canParse(value)) return false;
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === '';
    },
    { message: 'must be an http:// or https:// URL without user or password in it' },
  );

const email = z.string().min(3).max(254).email();

/** Per type, the settings a channel keeps in clear (shown) and those sealed at rest (never shown). */
export const channelSettingsSchemas = {
  webhook: z.object({ url: channelUrl }).strict(),
  email: z
    .object({
      host: text(253),
      port: z.number().int().min(1).max(65_535).default(587),
      security: z.enum(['starttls', 'tls']).default('starttls').describe('`starttls` (587) upgrades the connection, `tls` (465) starts encrypted'),
      username: text(255).nullable().optional(),
      password: z.string().min(1).max(1_024).nullable().optional().describe('write-only: sealed at rest, never answered'),
      from: email,
      to: z.array(email).min(1).max(20),
      ca: z
        .string()
        .max(16_384)
        .nullable()
        .optional()
        .describe('PEM certificate(s) the server’s certificate must chain to, beside the system’s (a private CA)'),
    })
    .strict(),
  ntfy: z
    .object({
      url: channelUrl.describe('the topic URL, e.g. https://ntfy.sh/my-dms-alerts'),
      token: z.string().min(1).max(1_024).nullable().optional().describe('write-only access token (Bearer); sealed at rest, never answered'),
    })
    .strict(),
  slack: z.object({ url: channelUrl.describe('the incoming-webhook URL') }).strict(),
  discord: z.object({ url: channelUrl.describe('the webhook URL') }).strict(),
  teams: z.object({ url: channelUrl.describe('the incoming-webhook (or workflow) URL') }).strict(),
  syslog: z
    .object({
      host: z.string().min(1).max(255).regex(hostPattern, { message: 'must be a host name, an IPv4 address or [IPv6]' }),
      port: z.number().int().min(1).max(65_535).default(514).describe('514 (UDP, TCP) by default; TLS is usually 6514'),
      transport: z.enum(['udp', 'tcp', 'tls']).default('udp').describe('RFC 5426 (UDP), RFC 6587 octet-counted (TCP) or RFC 5425 (TLS)'),
      facility: z.enum(['daemon', 'local0', 'local1', 'local2', 'local3', 'local4', 'local5', 'local6', 'local7']).default('daemon'),
      ca: z.string().max(16_384).nullable().optional().describe('PEM certificate(s) a TLS receiver’s certificate must chain to, beside the system’s'),
    })
    .strict(),
  alertmanager: z
    .object({
      url: channelUrl.describe('the Alertmanager’s base URL, e.g. http://alertmanager:9093 (dms posts to /api/v2/alerts below it)'),
      token: z.string().min(1).max(1_024).nullable().optional().describe('write-only Bearer token of a proxy in front of it; sealed at rest, never answered'),
    })
    .strict(),
} as const satisfies Record<ChannelType, z.ZodObject>;

export type ChannelSettings = { [T in ChannelType]: z.output<(typeof channelSettingsSchemas)[T]> };

/** The settings fields sealed at rest, per type: written, never answered, audited as "changed". */
export const channelSecretFields: Record<ChannelType, readonly string[]> = {
  webhook: [],
  email: ['password'],
  ntfy: ['token'],
  slack: [],
  discord: [],
  teams: [],
  syslog: [],
  alertmanager: ['token'],
};

const level = z.number().int().min(1).max(5);
const sources = z
  .array(z.enum(notificationSources as [string, ...string[]]))
  .min(1)
  .max(notificationSources.length)
  .nullable()
  .describe('the alert sources and job outcomes the channel receives; null: all of them');
const digest = z.enum(channelDigests, { error: `must be one of: ${channelDigests.join(', ')}` });
const digestHour = z.number().int().min(0).max(23).describe('the hour (0-23, UTC) a `daily` digest is sent at, covering the 24 hours before it');

/** A daily digest's hour when none is given: 08:00 UTC. */
export const defaultDigestHour = 8;

const channelName = resourceName(255).refine((name) => !name.startsWith(trapChannelPrefix), {
  message: `must not start with ${trapChannelPrefix} (kept for the SNMP trap targets' queues)`,
});

const readOnly = ['id', 'secret', 'failing_since', 'created_at', 'updated_at'];

/** The settings as a body sends them: checked against the channel's type by the service. */
const settingsInput = z.record(z.string(), z.unknown()).describe("the type's settings (see docs/api.md#notification-channels)");

export const channelCreateSchema = strictInput(
  z.object({
    name: channelName,
    type: z.enum(channelTypes),
    enabled: z.boolean().default(true),
    min_level: level.default(3),
    sources: sources.default(null),
    digest: digest.default('immediately'),
    digest_hour: digestHour.default(defaultDigestHour),
    settings: settingsInput,
  }),
  { readOnly },
);

export const channelUpdateSchema = strictInput(
  z.object({
    name: channelName.optional(),
    type: z.enum(channelTypes).optional(),
    enabled: z.boolean().optional(),
    min_level: level.optional(),
    sources: sources.optional(),
    digest: digest.optional(),
    digest_hour: digestHour.optional(),
    settings: settingsInput.optional(),
  }),
  { readOnly },
);
export type ChannelCreate = z.output<typeof channelCreateSchema>;
export type ChannelUpdate = z.output<typeof channelUpdateSchema>;

export const channelSchema = z
  .object({
    id: idSchema,
    name: z.string(),
    type: z.enum(channelTypes),
    enabled: z.boolean(),
    min_level: level,
    sources: z.array(z.string()).nullable(),
    digest: z.enum(channelDigests),
    digest_hour: digestHour,
    settings: z.record(z.string(), z.unknown()).describe('the type’s settings, without the write-only secrets (password, token)'),
    failing_since: z.string().nullable().describe('set while its deliveries fail (a notification_channel_failing alert is open past 3 failures)'),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'notification_channel' });
export type Channel = z.output<typeof channelSchema>;

/** The 201 of a webhook's create carries its signing secret, once. */
export const channelCreatedSchema = channelSchema
  .extend({ secret: z.string().optional().describe('a webhook’s signing secret (`whsec_…`): answered once, here; never again') })
  .meta({ id: 'notification_channel_created' });

export const channelCollectionSchema = collectionSchema('notification_channels', channelSchema).meta({ id: 'notification_channel_collection' });

const { integer, string, boolean, oneOf, timestamp } = listFields;

export const channelListSpec: ListSpec = {
  fields: { id: integer, name: string, type: oneOf(channelTypes), enabled: boolean, min_level: integer, created_at: timestamp },
  filterable: ['id', 'name', 'type', 'enabled', 'min_level'],
};

/** Where a delivery stands: queued or retrying (next_attempt_at set), or finished. */
export const deliveryOutcomes = ['pending', 'retrying', 'delivered', 'failed', 'dropped'] as const;
export type DeliveryOutcome = (typeof deliveryOutcomes)[number];

export const deliverySchema = z
  .object({
    id: idSchema,
    event_id: z.string().describe('the event’s id: a webhook’s `webhook-id`, the same on every channel'),
    event_type: z.enum(notificationEventTypes),
    at: z.string().nullable().describe('the latest attempt; null before the first'),
    attempts: z.number().int(),
    outcome: z.enum(deliveryOutcomes),
    status_code: z.number().int().nullable().describe('the receiver’s HTTP status of the latest attempt (HTTP channels)'),
    error: z.string().nullable(),
    next_attempt_at: z.string().nullable().describe('when it is tried again; null once delivered, failed for good or dropped'),
    created_at: z.string(),
  })
  .meta({ id: 'notification_delivery' });
export type Delivery = z.output<typeof deliverySchema>;
export const deliveryCollectionSchema = collectionSchema('deliveries', deliverySchema).meta({ id: 'notification_delivery_collection' });

export const deliveryListSpec: ListSpec = {
  fields: {
    id: integer,
    event_type: oneOf(notificationEventTypes),
    outcome: oneOf(deliveryOutcomes),
    at: { ...listFields.nullableTimestamp },
    created_at: timestamp,
  },
  filterable: ['id', 'event_type', 'outcome', 'at', 'created_at'],
};

export const channelTestResultSchema = z
  .object({
    outcome: z.enum(['delivered', 'failed']),
    status_code: z.number().int().nullable(),
    error: z.string().nullable(),
  })
  .meta({ id: 'notification_channel_test' });
export type ChannelTestResult = z.output<typeof channelTestResultSchema>;
