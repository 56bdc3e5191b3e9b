// Types of counts.mjs for its unit test (test/bench/scale-counts.test.ts).
export interface ScaleCounts {
  nas: number;
  shares: number;
  pools: number;
  jobs: number;
  auditEvents: number;
  scanDays: number;
  schedules: number;
  openAlerts: number;
}
export const fullScale: ScaleCounts;
export const jobSpanDays: number;
export const auditSpanDays: number;
export function scaleCounts(size: string): ScaleCounts;
export function rowBatches<Row>(total: number, row: (i: number) => Row, size: number): Generator<Row[]>;
export function historyParts(counts: ScaleCounts): { table: string; spanDays: number }[];
export function bytesPerShareYear(input: { shares: number; parts: { bytes: number; spanDays: number }[] }): number;
