import { describe, expect, it } from 'vitest';
import { daysUntil, forecastCapacity, maxFittedSamples, type CapacitySample } from './capacity-forecast.js';

const dayMs = 24 * 3600_000;
const GB = 1e9;
const capacity = 1000 * GB;
const now = Date.parse('2025-06-30T12:00:00Z');

/** Samples every `everyHours` over the last `days`, used bytes from `usedAt(day)` (day 0 = now, negative before). */
function history(usedAt: (day: number) => number, days = 30, everyHours = 6): CapacitySample[] {
  const samples: CapacitySample[] = [];
  for (let t = now - days * dayMs; t <= now; t += everyHours * 3600_000) {
    samples.push({ at: t, capacity_bytes: capacity, free_bytes: capacity - usedAt((t - now) / dayMs) });
  }
  return samples;
}

/** A deterministic noise source (an LCG), so a failure reproduces. */
function noise(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31 - 0.5;
  };
}

function expectWithinTenPercent(days: number | null, trueDays: number): void {
  expect(days).not.toBeNull();
  expect(Math.abs(days! - trueDays)).toBeLessThanOrEqual(trueDays * 0.1);
}

describe('issue 42 item 3: the forecast of when a share is full', () => {
  it('issue 42 item 3: linear growth is forecast within 10 % of the true date, naming its samples and days', () => {
    // 600 GB used now, 10 GB a day: full in 40 days.
    const forecast = forecastCapacity(
      history((day) => 600 * GB + day * 10 * GB),
      now,
    );
    expect(forecast).toMatchObject({ samples: 121, days: 30 });
    expect(forecast!.growth_bytes_per_day).toBeCloseTo(10 * GB, -6);
    expectWithinTenPercent(daysUntil(forecast!.full_at, now), 40);
  });

  it('issue 42 item 3: after a sudden cleanup the date moves out at once, the trend kept', () => {
    // 10 GB a day; 15 days ago 300 GB were deleted: 500 GB used now, full in 50 days.
    const used = (day: number) => 650 * GB + day * 10 * GB - (day >= -15 ? 300 * GB : 0) + 150 * GB;
    expect(used(0)).toBe(500 * GB);
    const forecast = forecastCapacity(history(used), now);
    expect(forecast!.growth_bytes_per_day).toBeCloseTo(10 * GB, -6);
    expectWithinTenPercent(daysUntil(forecast!.full_at, now), 50);
  });

  it('issue 42 item 3: a flat share is not growing: no date', () => {
    const forecast = forecastCapacity(
      history(() => 700 * GB),
      now,
    );
    expect(forecast).toMatchObject({ growth_bytes_per_day: 0, full_at: null });
    expect(daysUntil(forecast!.full_at, now)).toBeNull();
  });

  it('issue 42 item 3: a shrinking share has no date and a negative growth', () => {
    const forecast = forecastCapacity(
      history((day) => 700 * GB - day * 5 * GB),
      now,
    );
    expect(forecast!.growth_bytes_per_day).toBeLessThan(0);
    expect(forecast!.full_at).toBeNull();
  });

  it('issue 42 item 3: noise and a few wild samples barely move it', () => {
    // ±10 GB of noise on every sample and every tenth sample 200 GB off: 20 GB a day, full in 20 days.
    const random = noise(42);
    let i = 0;
    const used = (day: number) => 600 * GB + day * 20 * GB + random() * 20 * GB + (++i % 10 === 0 ? 200 * GB : 0);
    const forecast = forecastCapacity(history(used), now);
    expectWithinTenPercent(daysUntil(forecast!.full_at, now), 20);
  });

  it('issue 42 item 3: too little history gives no forecast (fewer than 3 samples, or under 24 hours)', () => {
    const grow = (day: number) => 600 * GB + day * 10 * GB;
    expect(forecastCapacity(history(grow, 30, 24 * 20), now)).toBeUndefined(); // 2 samples
    expect(forecastCapacity(history(grow, 0.9, 1), now)).toBeUndefined(); // 22 hours
    expect(forecastCapacity(history(grow, 1, 12), now)).toMatchObject({ samples: 3, days: 1 });
    // Samples older than the window do not count.
    expect(forecastCapacity(history(grow, 60, 24 * 20), now, 30)).toBeUndefined();
  });

  it('issue 42 item 3: a long history is thinned, so the fit stays small', () => {
    const forecast = forecastCapacity(
      history((day) => 600 * GB + day * 10 * GB, 30, 0.05),
      now,
    );
    expect(forecast!.samples).toBeLessThanOrEqual(maxFittedSamples);
    expectWithinTenPercent(daysUntil(forecast!.full_at, now), 40);
  });
});
