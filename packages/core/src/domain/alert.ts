import { z } from 'zod';
import { idSchema } from './common.js';
import { strictInput } from '../validation/strict-input.js';
import type { Severity } from './trap.js';
import type { ListSpec } from '../list-query/list-query.js';
import { listFields } from '../list-query/list-fields.js';
import { listQuerySchema } from '../list-query/list-query-schema.js';
import { collectionSchema } from '../list-query/collection-schema.js';

/**
 * What dms keeps watch on (docs/decisions/091-alerts.md, TrueNAS's alert sources): each raises an alert when
 * its condition starts and clears it when it ends, at its default level unless the alert
 * settings say otherwise (levels as traps: 1 info … 5 critical).
 */
export const alertSourceCatalogue = {
  share_unreachable: { level: 4, description: 'a test of a share failed where it had passed (or never run): cleared by the next successful test' },
  scan_failed: { level: 3, description: 'a scan of a share failed: cleared by the next completed scan' },
  schedule_missed: {
    level: 3,
    description: 'a schedule missed runs (dms not running, or storage failing; the message says which): cleared by its next run on time',
  },
  schedule_stopped: {
    level: 4,
    description: 'a schedule was disabled because its creator is gone or may no longer test or scan shares: cleared once it is enabled again',
  },
  schedule_run_incomplete: {
    level: 3,
    description: 'a schedule’s run started no job on some shares (refused for them): cleared by a run that starts them all',
  },
  api_key_expiring: { level: 3, description: 'an API key expires within 7 days: cleared once it is extended, revoked or expired' },
  storage_degraded: { level: 5, description: 'the storage failed a readiness check (/readyz): cleared once it passes again' },
  job_queue_saturated: { level: 3, description: 'a job was refused by the queue bounds: cleared once the queue has room again' },
  trap_target_unreachable: { level: 3, description: 'an SNMP inform was not acknowledged after its retries: cleared by the next acknowledged one' },
  notification_channel_failing: {
    level: 3,
    description: 'a notification channel failed 3 deliveries in a row (told on the other channels): cleared by its next successful delivery',
  },
  share_nearly_full: {
    level: 3,
    description:
      'a test or scan read a share used at warning_percent (80) or more: at its level, one level higher from critical_percent (90); cleared once below warning_percent or when the share is deleted',
  },
  share_full_soon: {
    level: 3,
    description: "a share's forecast says it is full within `days` (30): cleared once the forecast says later (or nothing) or when the share is deleted",
  },
} as const satisfies Record<string, { level: Severity; description: string }>;

export type AlertSource = keyof typeof alertSourceCatalogue;
export const alertSources = Object.keys(alertSourceCatalogue) as AlertSource[];

const level = z.number().int().min(1).max(5);

const alertResourceSchema = z.object({ type: z.string(), id: z.string().nullable(), name: z.string().nullable() });

export const alertSchema = z
  .object({
    id: idSchema,
    source: z.enum(alertSources as [AlertSource, ...AlertSource[]]),
    level,
    resource: alertResourceSchema.nullable(),
    message: z.string(),
    raised_at: z.string(),
    last_seen_at: z.string().describe('the last time the condition was seen: an alert is updated, not repeated, while it lasts'),
    cleared_at: z.string().nullable().describe('null while the condition lasts (an open alert)'),
    dismissed_at: z.string().nullable().describe('set by PUT {"dismissed": true}: seen by an operator; it still clears by itself'),
    silenced: z.boolean().describe('a silence holds its notifications back (docs/api.md#silences): still raised and listed, nothing sent'),
  })
  .meta({ id: 'alert' });
export type Alert = z.output<typeof alertSchema>;
export const alertCollectionSchema = collectionSchema('alerts', alertSchema).meta({ id: 'alert_collection' });

export const alertUpdateSchema = strictInput(z.object({ dismissed: z.boolean() }), {
  readOnly: ['id', 'source', 'level', 'resource', 'message', 'raised_at', 'last_seen_at', 'cleared_at', 'dismissed_at', 'silenced'],
});

/** The capacity sources' thresholds: only their rows carry them (and only theirs take them). */
export const alertThresholds = {
  share_nearly_full: ['warning_percent', 'critical_percent'],
  share_full_soon: ['days'],
} as const satisfies Partial<Record<AlertSource, readonly string[]>>;
export type AlertThresholdField = 'warning_percent' | 'critical_percent' | 'days';

const percent = z.number().int().min(1).max(100);
/** The longest a condition may be held before it is raised or cleared: a day (docs/decisions/172-alert-damping.md). */
export const alertHoldMaxSeconds = 86_400;
const holdSeconds = z.number().int().min(0).max(alertHoldMaxSeconds);
/** `share_unreachable`'s automatic raise_after_seconds when the test that failed belongs to a schedule running more often than every 5 minutes. */
export const frequentScheduleHoldSeconds = 300;
const raiseAfterDescription =
  'seconds the condition must last before the alert is raised and sent (0 to 86400); null: automatic (0, but 300 for share_unreachable when the failing test belongs to a schedule running more often than every 5 minutes)';
const clearAfterDescription = 'seconds the condition must be gone before the alert clears (0 to 86400; default 0)';
const thresholdDays = z.number().int().min(1).max(3650);

export const alertSettingSchema = z
  .object({
    source: z.enum(alertSources as [AlertSource, ...AlertSource[]]),
    enabled: z.boolean(),
    level,
    description: z.string(),
    warning_percent: percent.optional().describe('share_nearly_full only: used percent that raises the alert at its level (80)'),
    critical_percent: percent.optional().describe('share_nearly_full only: used percent from which it is one level higher (90)'),
    days: thresholdDays.optional().describe('share_full_soon only: a forecast full date within this many days raises it (30)'),
    raise_after_seconds: holdSeconds.nullable().describe(raiseAfterDescription),
    clear_after_seconds: holdSeconds.describe(clearAfterDescription),
  })
  .meta({ id: 'alert_setting' });
export type AlertSetting = z.output<typeof alertSettingSchema>;
export const alertSettingCollectionSchema = collectionSchema('alert_settings', alertSettingSchema).meta({ id: 'alert_setting_collection' });
export const alertSettingUpdateSchema = strictInput(
  z
    .object({
      enabled: z.boolean(),
      level,
      warning_percent: percent,
      critical_percent: percent,
      days: thresholdDays,
      raise_after_seconds: holdSeconds.nullable(),
      clear_after_seconds: holdSeconds,
    })
    .partial(),
  { readOnly: ['source', 'description'] },
);

const { integer, nullableString, timestamp, nullableTimestamp, oneOf, boolean } = listFields;

/** Newest first unless `sort_by` says otherwise; `cleared_at=null` lists the open ones. */
export const alertListSpec: ListSpec = {
  fields: {
    id: integer,
    source: oneOf(alertSources),
    level: integer,
    resource_type: nullableString,
    resource_id: nullableString,
    raised_at: timestamp,
    last_seen_at: timestamp,
    cleared_at: nullableTimestamp,
    dismissed_at: nullableTimestamp,
    silenced: boolean,
  },
  filterable: ['id', 'source', 'level', 'resource_type', 'resource_id', 'raised_at', 'last_seen_at', 'cleared_at', 'dismissed_at', 'silenced'],
};
export const alertListQuerySchema = listQuerySchema(alertListSpec);
