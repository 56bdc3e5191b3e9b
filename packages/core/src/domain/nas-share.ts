import { z } from 'zod';
import { resourceName, idSchema, optionalText, text } from './common.js';
import { strictInput, type InputRules } from '../validation/strict-input.js';
import type { ListSpec } from '../list-query/list-query.js';
import { collectionSchema } from '../list-query/collection-schema.js';
import { listFields } from '../list-query/list-fields.js';
import { listQuerySchema } from '../list-query/list-query-schema.js';

/** `key` or `key=value`, comma-separated, no whitespace or control characters. */
const optionsPattern = /^(?:[^\s,=\u0000-\u001f\u007f]+(?:=[^\s,\u0000-\u001f\u007f]*)?(?:,[^\s,=\u0000-\u001f\u007f]+(?:=[^\s,\u0000-\u001f\u007f]*)?)*)?$/;

/** A share's health, from its latest test (docs/decisions/090-health-scans-capacity.md). */
export const shareHealths = ['ok', 'unreachable', 'unknown'] as const;
export type ShareHealth = (typeof shareHealths)[number];

export const nasShareWritableSchema = z.object({
  name: resourceName(255),
  path: text(4096),
  options: z.string().max(1024).regex(optionsPattern, { message: 'must be comma-separated key or key=value options' }).nullable().optional(),
  username: optionalText(255),
  password: optionalText(255),
  capacity_warning_percent: z
    .number()
    .int()
    .min(1)
    .max(100)
    .nullable()
    .optional()
    .describe("this share's share_nearly_full warning threshold, 1-100; null: the source's warning_percent (GET /alert_settings)"),
  capacity_critical_percent: z
    .number()
    .int()
    .min(1)
    .max(100)
    .nullable()
    .optional()
    .describe("this share's threshold one level higher, 1-100, not below the warning one; null: the source's critical_percent"),
});

/** What tests and scans read of the share's file system (issue 42), read-only. */
export const shareCapacityFields = ['capacity_bytes', 'free_bytes', 'used_percent', 'capacity_checked_at', 'days_until_full', 'capacity_forecast'] as const;

/** Read-only, so ignored in a body; a typo close to one of them is told where it is set. */
const shareInputRules: InputRules = {
  readOnly: [
    'id',
    'nas_id',
    'pool_id',
    'file_count',
    'file_size_sum',
    'health',
    'last_tested_at',
    'last_test_status',
    'last_scanned_at',
    ...shareCapacityFields,
  ],
  setElsewhere: {
    pool_id: 'is set through PUT /pools/{id} {"nas_share_ids": [...]}',
    file_count: 'is set by scans: PUT /nas_shares/{id}/scan',
    file_size_sum: 'is set by scans: PUT /nas_shares/{id}/scan',
    capacity_bytes: 'is read by tests and scans: PUT /nas_shares/{id}/test',
    free_bytes: 'is read by tests and scans: PUT /nas_shares/{id}/test',
  },
};
export const nasShareCreateSchema = strictInput(nasShareWritableSchema, { ...shareInputRules, id: 'nas_share_input' });
export const nasShareUpdateSchema = strictInput(nasShareWritableSchema.partial(), shareInputRules);

export const nasShareSchema = z
  .object({
    id: idSchema,
    nas_id: idSchema,
    pool_id: idSchema.nullable(),
    name: z.string(),
    path: z.string(),
    options: z.string().nullable(),
    username: z.string().nullable(),
    password: z.string().nullable().optional(),
    file_count: z.number().int(),
    file_size_sum: z.number().int(),
    health: z.enum(shareHealths).describe('from the latest test, saved or scheduled: ok, unreachable, or unknown before any'),
    last_tested_at: z.string().nullable(),
    last_test_status: z.enum(['completed', 'failed']).nullable(),
    last_scanned_at: z.string().nullable().describe('null until a scan completed: file_count and file_size_sum are then not counted yet'),
    capacity_bytes: z
      .number()
      .int()
      .nullable()
      .describe('size of the file system the share lies on, as its protocol reports it, read by the latest test or scan; null until one read it'),
    free_bytes: z.number().int().nullable().describe("bytes the share's user may still write there (not the root's reserve)"),
    used_percent: z.number().nullable().describe('(capacity_bytes - free_bytes) / capacity_bytes, in percent, one decimal'),
    capacity_checked_at: z.string().nullable().describe('when capacity_bytes and free_bytes were read'),
    days_until_full: z
      .number()
      .nullable()
      .describe('days until the forecast line reaches capacity_bytes, one decimal; null when the share is not growing or has too little history'),
    capacity_forecast: z
      .object({
        samples: z.number().int().describe('capacity readings the line was fitted to'),
        days: z.number().describe('the days those readings span'),
        growth_bytes_per_day: z.number().int(),
        full_at: z.string().nullable(),
      })
      .nullable()
      .describe('the fit behind days_until_full: a Theil-Sen line of used bytes over the last 30 days (at least 3 readings spanning 24 hours)'),
    capacity_warning_percent: z.number().int().nullable().describe("this share's share_nearly_full warning threshold; null: the source's warning_percent"),
    capacity_critical_percent: z.number().int().nullable().describe("this share's share_nearly_full critical threshold; null: the source's critical_percent"),
  })
  .meta({ id: 'nas_share' });

export const nasShareCollectionSchema = collectionSchema('nas_shares', nasShareSchema).meta({ id: 'nas_share_collection' });

export type NasShareCreate = z.output<typeof nasShareCreateSchema>;
export type NasShareUpdate = z.output<typeof nasShareUpdateSchema>;
export type NasShare = z.output<typeof nasShareSchema>;

export function parseShareOptions(options: string | null | undefined): Map<string, string | true> {
  const parsed = new Map<string, string | true>();
  if (!options) return parsed;
  for (const part of options.split(',')) {
    const eq = part.indexOf('=');
    if (eq === -1) parsed.set(part, true);
    else parsed.set(part.slice(0, eq), part.slice(eq + 1));
  }
  return parsed;
}

// Lists: the attributes a list sorts and filters on, and the query parameters they give.
const { integer, nullableInteger, string, nullableString, bigInteger, nullableTimestamp, oneOf } = listFields;

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
  health: oneOf(shareHealths),
  last_tested_at: nullableTimestamp,
  last_scanned_at: nullableTimestamp,
};

const commonShareFilters = ['id', 'name', 'path', 'options', 'username', 'health', 'last_tested_at', 'last_scanned_at'] as const;

/**
 * The three share lists (a NAS's, all, a pool's) each filter on a different set of attributes: a list
 * under a NAS does not filter on nas_id, a list under a pool not on pool_id.
 */
export const shareListSpecs = {
  all: { fields: shareFields, filterable: [...commonShareFilters, 'nas_id', 'pool_id'] },
  nas: { fields: shareFields, filterable: [...commonShareFilters, 'pool_id'] },
  pool: { fields: shareFields, filterable: [...commonShareFilters, 'nas_id'] },
} as const satisfies Record<string, ListSpec>;
export const shareListQuerySchemas = {
  all: listQuerySchema(shareListSpecs.all),
  nas: listQuerySchema(shareListSpecs.nas),
  pool: listQuerySchema(shareListSpecs.pool),
} as const;

/**
 * A share's own `share_nearly_full` thresholds, where both are set, must not cross
 * (docs/decisions/142-capacity-thresholds-per-share.md): resolves the problem, or undefined.
 */
export function shareThresholdProblem(warning: number | null | undefined, critical: number | null | undefined): string | undefined {
  if (warning == null || critical == null || warning <= critical) return undefined;
  return `capacity_critical_percent (${critical}) must not be below capacity_warning_percent (${warning})`;
}

/** The thresholds that apply to a share: its own, else the source's; critical never below warning. */
export function effectiveThresholds(
  share: { capacity_warning_percent: number | null; capacity_critical_percent: number | null },
  source: { warning: number; critical: number },
): { warning: number; critical: number } {
  const warning = share.capacity_warning_percent ?? source.warning;
  return { warning, critical: Math.max(warning, share.capacity_critical_percent ?? source.critical) };
}
