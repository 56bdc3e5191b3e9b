import { z } from 'zod';
import { idSchema, resourceName } from './common.js';
import { strictInput } from '../validation/strict-input.js';
import type { ListSpec } from '../list-query/list-query.js';
import { listFields } from '../list-query/list-fields.js';
import { listQuerySchema } from '../list-query/list-query-schema.js';
import { collectionSchema } from '../list-query/collection-schema.js';

/** What a run starts on each share of its target: a share test or a scan (docs/api.md#schedules). */
export const scheduleActions = ['test', 'scan'] as const;
export type ScheduleAction = (typeof scheduleActions)[number];

/** The four ways to name a schedule's shares; exactly one per schedule. */
export const scheduleTargetFields = ['nas_share_ids', 'pool_id', 'nas_id', 'all_shares'] as const;

/** Most shares a schedule names one by one (a pool, a NAS or all shares name any number). */
export const maxScheduleShareIds = 1_000;

/**
 * RFC 5545 text: `DTSTART:20261125T120000Z` or `DTSTART;TZID=Europe/Paris:20261125T120000`, a
 * newline, then `RRULE:…` (docs/api.md#schedules). Only its shape is checked here; the rule itself is
 * evaluated by the service (off the event loop), which answers 422 with the parser's reason.
 */
export const rruleText = z
  .string()
  .min(1)
  .max(2_000)
  .regex(/DTSTART[\s\S]*RRULE:|RRULE:[\s\S]*DTSTART/i, {
    message: 'must hold a DTSTART line and an RRULE line, e.g. "DTSTART:20261125T120000Z\\nRRULE:FREQ=HOURLY"',
  });

/**
 * The four target fields. A body names its target with one of them; the others may be absent,
 * null or (all_shares) false, as a GET body shows them, so a GET body can be sent back (docs/decisions/023-strict-bodies.md).
 */
const targetShape = {
  nas_share_ids: z.array(idSchema).min(1).max(maxScheduleShareIds).nullable().optional(),
  pool_id: idSchema.nullable().optional(),
  nas_id: idSchema.nullable().optional(),
  all_shares: z.boolean().optional(),
};

const scheduleReadOnly = [
  'id',
  'next',
  'last_run_at',
  'missed_count',
  'skipped_count',
  'not_started_count',
  'creator_user_id',
  'creator_key_id',
  'retry_at',
  'last_error',
  'created_at',
  'updated_at',
];

type TargetInput = Partial<Record<(typeof scheduleTargetFields)[number], unknown>>;

/** The target fields a body sets: present, not null and not false. */
export function targetFieldsOf(input: TargetInput): string[] {
  return scheduleTargetFields.filter((field) => input[field] !== undefined && input[field] !== null && input[field] !== false);
}

const oneTarget = (input: TargetInput) => targetFieldsOf(input).length === 1;
/** An update leaves the target alone (no target field at all) or names exactly one; mentioning targets but naming none is refused. */
const keepsOrNamesOneTarget = (input: TargetInput) => {
  const named = targetFieldsOf(input).length;
  const mentioned = scheduleTargetFields.some((field) => input[field] !== undefined);
  return named === 1 || (named === 0 && !mentioned);
};
const oneTargetRule = {
  message: 'must be exactly one of nas_share_ids, pool_id, nas_id or all_shares: true',
  path: ['target'],
};

export const scheduleCreateSchema = strictInput(
  z
    .object({
      name: resourceName(255),
      action: z.enum(scheduleActions),
      rrule: rruleText,
      enabled: z.boolean().default(true),
      ...targetShape,
    })
    .refine(oneTarget, oneTargetRule),
  { readOnly: scheduleReadOnly },
);

/** A partial update; a target field given replaces the schedule's target (the others are cleared). */
export const scheduleUpdateSchema = strictInput(
  z
    .object({
      name: resourceName(255).optional(),
      action: z.enum(scheduleActions).optional(),
      rrule: rruleText.optional(),
      enabled: z.boolean().optional(),
      ...targetShape,
    })
    .refine(keepsOrNamesOneTarget, oneTargetRule),
  { readOnly: scheduleReadOnly },
);

export const scheduleSchema = z
  .object({
    id: idSchema,
    name: z.string(),
    action: z.enum(scheduleActions),
    nas_share_ids: z.array(idSchema).nullable(),
    pool_id: idSchema.nullable(),
    nas_id: idSchema.nullable(),
    all_shares: z.boolean(),
    rrule: z.string(),
    enabled: z.boolean(),
    next: z.string().nullable().describe('when the next run is due (UTC); null once the rule has ended or while disabled'),
    last_run_at: z.string().nullable(),
    missed_count: z
      .number()
      .int()
      .describe('occurrences that passed without a run (dms not running, or storage failing): each missed window runs once, not replayed'),
    skipped_count: z.number().int().describe('runs not started because the previous run’s jobs were still going'),
    not_started_count: z.number().int().describe('shares its runs started no job on (that share refused the job), in all'),
    creator_user_id: idSchema.nullable().describe('the user whose rights the schedule acts with (who created or last changed it), when a user did'),
    creator_key_id: idSchema.nullable().describe('the API key whose rights (as its lineage bounds them now) the schedule acts with, when a key did'),
    retry_at: z.string().nullable().describe('set while its rule could not be evaluated: looked at again then'),
    last_error: z.string().nullable().describe('what last stopped a run (its rule refused, its creator gone or no longer allowed); null once one goes well'),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'schedule' });

export type ScheduleCreate = z.output<typeof scheduleCreateSchema>;
export type ScheduleUpdate = z.output<typeof scheduleUpdateSchema>;
export type Schedule = z.output<typeof scheduleSchema>;
export const scheduleCollectionSchema = collectionSchema('schedules', scheduleSchema).meta({ id: 'schedule_collection' });

const { integer, string, boolean, nullableInteger, timestamp, nullableTimestamp, oneOf } = listFields;

export const scheduleListSpec: ListSpec = {
  fields: {
    id: integer,
    name: string,
    action: oneOf(scheduleActions),
    enabled: boolean,
    pool_id: nullableInteger,
    nas_id: nullableInteger,
    next: { ...nullableTimestamp, column: 'next_run_at' },
    last_run_at: nullableTimestamp,
    missed_count: integer,
    skipped_count: integer,
    created_at: timestamp,
  },
  filterable: ['id', 'name', 'action', 'enabled', 'pool_id', 'nas_id', 'next', 'last_run_at', 'missed_count', 'skipped_count'],
};
export const scheduleListQuerySchema = listQuerySchema(scheduleListSpec);
