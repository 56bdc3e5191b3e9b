import { z } from 'zod';
import { idSchema } from './common.js';
import type { ListSpec } from '../list-query/list-query.js';
import { listFields } from '../list-query/list-fields.js';
import { listQuerySchema } from '../list-query/list-query-schema.js';
import { collectionSchema } from '../list-query/collection-schema.js';
import { scanAnalyticsSchema, scanComparisonHistogramsSchema, topGrowerSchema } from './scan-analytics.js';

/** A completed scan of a share, as its history lists it (GET /nas_shares/{id}/scans). */
export const shareScanSchema = z
  .object({
    id: idSchema,
    at: z.string(),
    file_count: z.number().int(),
    file_size_sum: z.number().int(),
    duration_ms: z.number().int(),
    capacity_bytes: z.number().int().nullable().describe("the share's file-system size when the scan ended; null when the protocol did not tell it"),
    free_bytes: z.number().int().nullable().describe("bytes the share's user could still write then"),
  })
  .meta({ id: 'share_scan' });
export type ShareScan = z.output<typeof shareScanSchema>;
/** One scan with its analytics (GET /nas_shares/{id}/scans/{scan_id}). */
export const shareScanDetailSchema = shareScanSchema
  .extend({ analytics: scanAnalyticsSchema.nullable().describe('null for a scan made before scans kept analytics') })
  .meta({ id: 'share_scan_detail' });
export type ShareScanDetail = z.output<typeof shareScanDetailSchema>;

const scanSummarySchema = shareScanSchema.pick({ id: true, at: true, file_count: true, file_size_sum: true });

/** Two scans of a share compared (GET /nas_shares/{id}/scans/compare). */
export const scanComparisonSchema = z
  .object({
    from: scanSummarySchema,
    to: scanSummarySchema,
    top_growers: z
      .array(topGrowerSchema)
      .describe('directories (1 to 3 levels deep) whose subtree changed: the 20 that grew most, then the 20 that shrank most, by bytes_delta'),
    ...scanComparisonHistogramsSchema.shape,
  })
  .meta({ id: 'scan_comparison' });
export type ScanComparison = z.output<typeof scanComparisonSchema>;

export const scanCompareQuerySchema = z.object({
  from: z.string().describe("the earlier scan's id (of this share)"),
  to: z.string().describe("the later scan's id (of this share)"),
});

export const shareScanCollectionSchema = collectionSchema('scans', shareScanSchema).meta({ id: 'share_scan_collection' });

const { integer, bigInteger, timestamp } = listFields;

/** Newest first unless `sort_by` says otherwise. */
export const shareScanListSpec: ListSpec = {
  fields: { id: integer, at: timestamp, file_count: bigInteger, file_size_sum: bigInteger, duration_ms: integer },
  filterable: ['id', 'at', 'file_count', 'file_size_sum', 'duration_ms'],
};
export const shareScanListQuerySchema = listQuerySchema(shareScanListSpec);

/** Longest period growth is measured over, in days. */
export const maxCapacityPeriodDays = 3650;

export const capacityQuerySchema = z.object({
  days: z.string().optional().describe(`the period growth is measured over, in days (1–${maxCapacityPeriodDays}, default 30)`),
});

const sizes = {
  file_count: z.number().int().describe('files counted by the latest scans'),
  file_size_sum: z.number().int().describe('bytes counted by the latest scans'),
  shares_scanned: z.number().int(),
  shares_not_scanned: z.number().int().describe('shares never scanned: not in the totals'),
  growth: z
    .object({ file_count: z.number().int(), file_size_sum: z.number().int() })
    .describe('change over the period: latest scans against each share’s scan at its start (or its first scan since)'),
  capacity_bytes: z.number().int().describe('size of the file systems the shares lie on, from their latest readings, each file system counted once'),
  free_bytes: z.number().int().describe("bytes the shares' users may still write there"),
  used_percent: z.number().nullable().describe('(capacity_bytes - free_bytes) / capacity_bytes in percent, one decimal; null when no size is known'),
  growth_bytes_per_day: z.number().int().describe("sum of the file systems' forecast growth (0 for those without a forecast)"),
  days_until_full: z.number().nullable().describe('free_bytes / growth_bytes_per_day, one decimal; null when not growing'),
  shares_with_capacity: z.number().int().describe('shares whose size is known'),
  shares_merged: z
    .number()
    .int()
    .describe('shares not added again because another share of the same NAS reported the same size and free space (one file system)'),
};

export const capacitySchema = z
  .object({
    period_days: z.number().int(),
    since: z.string(),
    totals: z.object(sizes),
    nas: z.array(z.object({ nas_id: idSchema, name: z.string(), ...sizes })),
    pools: z.array(z.object({ pool_id: idSchema, name: z.string(), ...sizes })),
  })
  .meta({ id: 'capacity' });
export type Capacity = z.output<typeof capacitySchema>;
