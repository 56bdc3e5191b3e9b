import { describe, expect, it } from 'vitest';
import { auditSpanDays, bytesPerShareYear, fullScale, historyParts, jobSpanDays, rowBatches, scaleCounts } from '../../bench/scale/counts.mjs';

describe('the scale bench counts (bench/scale/counts.mjs)', () => {
  it('full size is the site issue 48 names', () => {
    expect(scaleCounts('full')).toEqual({
      nas: 500,
      shares: 10_000,
      pools: 5,
      jobs: 1_000_000,
      auditEvents: 10_000_000,
      scanDays: 90,
      schedules: 20,
      openAlerts: 50,
    });
  });

  it('small divides the bulk by 100 and keeps what the site is made of', () => {
    expect(scaleCounts('small')).toEqual({ ...fullScale, nas: 5, shares: 100, jobs: 10_000, auditEvents: 100_000 });
  });

  it('refuses another size, naming the allowed ones', () => {
    expect(() => scaleCounts('huge')).toThrow(/full or small/);
  });

  it('seeds inside the default retention, so nothing is purged before the bench asks', () => {
    expect(jobSpanDays).toBeLessThan(30);
    expect(auditSpanDays).toBeLessThan(365);
  });

  it('writes rows in full statements and a shorter last one, each row once and in order', () => {
    const sizes = (total: number, size: number) => [...rowBatches(total, (i) => i, size)].map((batch) => batch.length);
    expect(sizes(1_000, 100)).toEqual(Array(10).fill(100));
    expect(sizes(1_050, 100)).toEqual([...Array(10).fill(100), 50]);
    expect(sizes(7, 100)).toEqual([7]);
    expect(sizes(0, 100)).toEqual([]);
    expect([...rowBatches(5, (i) => i * 10, 2)]).toEqual([[0, 10], [20, 30], [40]]);
  });

  it('measures each history table over the days its seeded rows span', () => {
    const counts = scaleCounts('small');
    expect(historyParts(counts)).toEqual([
      { table: 'audit_events', spanDays: auditSpanDays },
      { table: 'jobs', spanDays: jobSpanDays },
      { table: 'share_scans', spanDays: counts.scanDays },
      { table: 'share_scan_analytics', spanDays: counts.scanDays },
      { table: 'share_capacity_samples', spanDays: counts.scanDays },
    ]);
  });

  it('scales each kind of history to a year before dividing by the shares', () => {
    const parts = [
      { bytes: 365, spanDays: 365 },
      { bytes: 30, spanDays: 30 },
    ];
    expect(bytesPerShareYear({ shares: 10, parts })).toBeCloseTo((365 + 365) / 10);
  });
});
