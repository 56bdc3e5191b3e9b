import { describe, expect, it } from 'vitest';
import { withinTimeWindow } from './usm-time-window.js';

describe('withinTimeWindow (RFC 3414 §3.2 step 7a)', () => {
  const engine = { engineBoots: 8, engineTime: 1000 };

  it('issue 40 item 6: takes the engine boots and a time within ±150 s, bounds included', () => {
    expect(withinTimeWindow(engine, 8, 1000)).toBe(true);
    expect(withinTimeWindow(engine, 8, 850)).toBe(true);
    expect(withinTimeWindow(engine, 8, 1150)).toBe(true);
  });

  it('issue 40 item 6: refuses a time 151 s away, another boot, and every message once boots latched at 2^31 - 1', () => {
    expect(withinTimeWindow(engine, 8, 849)).toBe(false);
    expect(withinTimeWindow(engine, 8, 1151)).toBe(false);
    expect(withinTimeWindow(engine, 7, 1000)).toBe(false);
    expect(withinTimeWindow(engine, 9, 1000)).toBe(false);
    const latched = { engineBoots: 2 ** 31 - 1, engineTime: 5 };
    expect(withinTimeWindow(latched, 2 ** 31 - 1, 5)).toBe(false);
  });
});
