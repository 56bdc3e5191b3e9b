import { describe, expect, it } from 'vitest';
import { auditSpanDays, batches, bytesPerShareYear, fullScale, jobSpanDays, scaleCounts } from '../../bench/scale/counts.mjs';

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

  it('splits rows into full statements and a rest', () => {
    expect(batches(1_000, 100)).toEqual({ full: 10, rest: 0 });
    expect(batches(1_050, 100)).toEqual({ full: 10, rest: 50 });
    expect(batches(7, 100)).toEqual({ full: 0, rest: 7 });
  });

  it('scales each kind of history to a year before dividing by the shares', () => {
    const parts = [
      { bytes: 365, spanDays: 365 },
      { bytes: 30, spanDays: 30 },
    ];
    expect(bytesPerShareYear({ shares: 10, parts })).toBeCloseTo((365 + 365) / 10);
  });
});
