import { z } from 'zod';
import { idSchema } from './common.js';
import { topGrowerSchema } from './scan-analytics.js';

/** Longest period a report covers, in days. */
export const maxReportDays = 366;
/** Growers listed per share in a report (the CSV has as many column triples). */
export const reportGrowersPerShare = 5;
/**
 * Shares whose top growers a report computes (the shares that grew most in bytes over the
 * period): each costs reading two scans' analytics, so a report's work stays bounded.
 */
export const reportGrowerShares = 100;

export const reportQuerySchema = z.object({
  days: z.string().optional().describe(`the period the report covers, in days (1–${maxReportDays}, default 7)`),
});

export const reportShareSchema = z
  .object({
    nas_share_id: idSchema,
    name: z.string(),
    nas_id: idSchema,
    nas_name: z.string(),
    file_count: z.number().int().nullable().describe('files counted by the latest scan; null before any'),
    file_size_sum: z.number().int().nullable().describe('bytes counted by the latest scan; null before any'),
    capacity_bytes: z.number().int().nullable().describe('size of the file system the share lies on, as last read'),
    used_bytes: z.number().int().nullable().describe('capacity_bytes - free_bytes'),
    free_bytes: z.number().int().nullable().describe("bytes the share's user may still write"),
    growth_bytes: z.number().int().nullable().describe("the latest scan's bytes minus the period's first (see GET /statistics/capacity); null before any scan"),
    growth_files: z.number().int().nullable(),
    days_until_full: z.number().nullable().describe("the share's forecast (see capacity_forecast on a share); null when unknown or not growing"),
    failed_tests: z.number().int().describe('share tests of the period that failed'),
    top_growers: z
      .array(topGrowerSchema)
      .nullable()
      .describe(
        "the 5 directories that grew most (then shrank most) between the period's first and latest scans; null when either scan has no analytics or the share is not among the 100 that grew most",
      ),
  })
  .meta({ id: 'report_share' });
export type ReportShare = z.output<typeof reportShareSchema>;

export const statisticsReportSchema = z
  .object({
    period_days: z.number().int(),
    since: z.string(),
    generated_at: z.string(),
    shares: z.array(reportShareSchema).describe('every share, by id'),
  })
  .meta({ id: 'statistics_report' });
export type StatisticsReport = z.output<typeof statisticsReportSchema>;
