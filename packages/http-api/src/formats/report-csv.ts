import { stringify } from 'csv-stringify/sync';
import { reportGrowersPerShare, type ReportShare, type StatisticsReport } from '@dms/core';

/** The columns of a share's row before its growers, in order, named as the JSON's fields. */
export const reportColumns = [
  'nas_share_id',
  'name',
  'nas_id',
  'nas_name',
  'file_count',
  'file_size_sum',
  'capacity_bytes',
  'used_bytes',
  'free_bytes',
  'growth_bytes',
  'growth_files',
  'days_until_full',
  'failed_tests',
] as const satisfies ReadonlyArray<keyof ReportShare>;

/** `top_grower_1_path`, `top_grower_1_bytes_delta`, `top_grower_1_files_delta`, then 2 … 5. */
export const growerColumns = Array.from({ length: reportGrowersPerShare }, (_, index) =>
  (['path', 'bytes_delta', 'files_delta'] as const).map((field) => `top_grower_${index + 1}_${field}`),
).flat();

/**
 * A text cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, a tab or a carriage
 * return first) gets a leading `'`, as OWASP's CSV injection advice says: a share's name or a
 * directory's path is the share owner's text, and opening the report must not run it.
 */
export function neutralizeFormula(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

const cell = (value: string | number | null | undefined): string =>
  value === null || value === undefined ? '' : typeof value === 'number' ? String(value) : neutralizeFormula(value);

/**
 * GET /statistics/report as RFC 4180 CSV (decision 157): a header line, then one line per share,
 * CRLF line ends, fields quoted where they hold a comma, a quote or a line end; null is an empty
 * field; the growers spread over fixed columns (empty where a share has fewer, or none known).
 */
export function reportCsv(report: StatisticsReport): string {
  const rows = report.shares.map((share) => {
    const growers = share.top_growers ?? [];
    const own = reportColumns.map((column) => cell(share[column]));
    const spread = Array.from({ length: reportGrowersPerShare }, (_, index) => {
      const grower = growers[index];
      return [cell(grower?.path), cell(grower?.bytes_delta), cell(grower?.files_delta)];
    }).flat();
    return [...own, ...spread];
  });
  return stringify([[...reportColumns, ...growerColumns], ...rows], { record_delimiter: 'windows' });
}
