import { describe, expect, it } from 'vitest';
import { capacityLevel, defaultThresholds, fullInText, shareThresholds } from './capacity-level.js';

describe('capacity level', () => {
  it('issue 42 item 2: the bar turns at the thresholds that apply to the share, its own first', () => {
    expect(capacityLevel(79.9, defaultThresholds)).toBe('ok');
    expect(capacityLevel(80, defaultThresholds)).toBe('warning');
    expect(capacityLevel(90, defaultThresholds)).toBe('critical');
    const own = shareThresholds({ capacity_warning_percent: 95, capacity_critical_percent: null }, defaultThresholds);
    expect(own).toEqual({ warning: 95, critical: 95 });
    expect(capacityLevel(92, own)).toBe('ok');
    expect(shareThresholds({ capacity_warning_percent: null, capacity_critical_percent: 85 }, defaultThresholds)).toEqual({ warning: 80, critical: 85 });
    expect(fullInText(null)).toBeUndefined();
    expect(fullInText(0.4)).toBe('full within a day');
    expect(fullInText(1.2)).toBe('full in 1 day');
    expect(fullInText(112.5)).toBe('full in 113 days');
  });
});
