import { z } from 'zod';
import { idSchema, text } from './common.js';
import { alertSources, type AlertSource } from './alert.js';
import { rruleText } from './schedule.js';
import type { Severity } from './trap.js';
import { strictInput } from '../validation/strict-input.js';
import type { ListSpec } from '../list-query/list-query.js';
import { listFields } from '../list-query/list-fields.js';
import { collectionSchema } from '../list-query/collection-schema.js';

/** The matcher fields a silence may name; an alert matches when every one named matches (docs/api.md#silences). */
export const silenceMatcherFields = ['source', 'resource_type', 'resource_id', 'nas_id', 'pool_id', 'max_level'] as const;

/** The shortest and longest maintenance window an `rrule` silence opens at each occurrence. */
export const minWindowSeconds = 60;
export const maxWindowSeconds = 7 * 24 * 3600;

/** Most silences kept at once: every raise reads the active ones, so their number is bounded. */
export const maxSilences = 1_000;

const level = z.number().int().min(1).max(5);

export const silenceMatchersSchema = z
  .object({
    source: z.enum(alertSources as [AlertSource, ...AlertSource[]]).optional(),
    resource_type: text(64).optional().describe('the alert’s resource type: nas, pools, nas_shares, schedules, api_keys, traps, notification_channels'),
    resource_id: text(255).optional().describe('the alert’s resource id, as text (`"12"`)'),
    nas_id: idSchema.optional().describe('alerts about this NAS or a share on it'),
    pool_id: idSchema.optional().describe('alerts about this pool or a share in it'),
    max_level: level.optional().describe('alerts at or below this level (1 info … 5 critical): a worse one still notifies'),
  })
  .strict()
  .refine((matchers) => silenceMatcherFields.some((field) => matchers[field] !== undefined), {
    message: `must name at least one matcher: ${silenceMatcherFields.join(', ')}`,
  });
export type SilenceMatchers = z.output<typeof silenceMatchersSchema>;

const timestamp = z.iso.datetime({ offset: true });
const readOnly = ['id', 'created_by', 'created_at', 'updated_at', 'active', 'window_starts_at', 'window_ends_at'];

const windowShape = {
  ends_at: timestamp.nullable().optional().describe('when the silence ends; exactly one of ends_at, rrule and until_cleared'),
  rrule: rruleText
    .nullable()
    .optional()
    .describe('a maintenance window: RFC 5545 DTSTART and RRULE lines, as schedules take them; each occurrence silences for duration_seconds'),
  duration_seconds: z.number().int().min(minWindowSeconds).max(maxWindowSeconds).nullable().optional().describe('with rrule: how long each window lasts'),
  until_cleared: z.boolean().optional().describe('ends when an alert it matches clears'),
};

export const silenceCreateSchema = strictInput(
  z.object({
    matchers: silenceMatchersSchema,
    starts_at: timestamp.optional().describe('when it starts; now when left out'),
    ...windowShape,
    reason: text(1_000),
  }),
  { readOnly },
);

export const silenceUpdateSchema = strictInput(
  z.object({
    matchers: silenceMatchersSchema.optional(),
    starts_at: timestamp.optional(),
    ...windowShape,
    reason: text(1_000).optional(),
  }),
  { readOnly },
);
export type SilenceCreate = z.output<typeof silenceCreateSchema>;
export type SilenceUpdate = z.output<typeof silenceUpdateSchema>;

export const silenceSchema = z
  .object({
    id: idSchema,
    matchers: silenceMatchersSchema,
    starts_at: z.string(),
    ends_at: z.string().nullable(),
    rrule: z.string().nullable(),
    duration_seconds: z.number().int().nullable(),
    until_cleared: z.boolean(),
    reason: z.string(),
    created_by: z.number().int().nullable().describe('the id of the user who made it (a key’s owner); null for a key of the system'),
    active: z.boolean().describe('whether it silences now'),
    window_starts_at: z.string().nullable().describe('the current or next window: when it opens (an rrule silence moves it on after each window)'),
    window_ends_at: z.string().nullable().describe('when the current or next window closes; null while an until_cleared silence lasts'),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'silence' });
export type Silence = z.output<typeof silenceSchema>;

export const silenceCollectionSchema = collectionSchema('silences', silenceSchema).meta({ id: 'silence_collection' });

const { integer, timestamp: timestampField, nullableTimestamp, boolean, nullableInteger } = listFields;

export const silenceListSpec: ListSpec = {
  fields: {
    id: integer,
    starts_at: timestampField,
    ends_at: nullableTimestamp,
    until_cleared: boolean,
    created_by: nullableInteger,
    window_starts_at: nullableTimestamp,
    window_ends_at: nullableTimestamp,
    created_at: timestampField,
  },
  filterable: ['id', 'starts_at', 'ends_at', 'until_cleared', 'created_by', 'window_starts_at', 'window_ends_at', 'created_at'],
};

/** What a matcher is compared with: the alert, and the NAS and pool its resource is or is on. */
export interface SilencedCandidate {
  source: string;
  level: Severity;
  resource_type: string | null;
  resource_id: string | null;
  /** The NAS the resource is or is on (a NAS, a share); null otherwise. */
  nas_id: number | null;
  /** The pool the resource is or is in (a pool, a share of a pool); null otherwise. */
  pool_id: number | null;
}

/** Whether every matcher the silence names matches the alert. */
export function silenceMatches(matchers: SilenceMatchers, alert: SilencedCandidate): boolean {
  if (matchers.source !== undefined && matchers.source !== alert.source) return false;
  if (matchers.resource_type !== undefined && matchers.resource_type !== alert.resource_type) return false;
  if (matchers.resource_id !== undefined && matchers.resource_id !== alert.resource_id) return false;
  if (matchers.nas_id !== undefined && matchers.nas_id !== alert.nas_id) return false;
  if (matchers.pool_id !== undefined && matchers.pool_id !== alert.pool_id) return false;
  if (matchers.max_level !== undefined && alert.level > matchers.max_level) return false;
  return true;
}

/** Whether a window holds an instant: opened at or before it, not yet closed (null: closes when its alert clears). */
export function windowHolds(window: { window_starts_at: string | null; window_ends_at: string | null }, at: string): boolean {
  return window.window_starts_at !== null && window.window_starts_at <= at && (window.window_ends_at === null || window.window_ends_at > at);
}
