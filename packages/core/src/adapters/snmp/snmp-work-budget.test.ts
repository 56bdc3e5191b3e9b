import { describe, expect, it } from 'vitest';
import { SnmpWorkBudget } from './snmp-work-budget.js';

describe('SnmpWorkBudget', () => {
  const clock = () => {
    let now = 0;
    return { now: () => now, advance: (ms: number) => void (now += ms) };
  };

  it('finding 20.1: a flood gets at most the budget; the rest is dropped until time refills it', () => {
    const time = clock();
    const budget = new SnmpWorkBudget({ msPerSecond: 100, burstMs: 50, perAddressShare: 1, now: time.now });
    let handled = 0;
    for (let i = 0; i < 1000; i++) {
      if (!budget.allows('192.0.2.1')) continue;
      handled++;
      budget.charge('192.0.2.1', 1);
    }
    expect(handled).toBe(50);
    time.advance(100);
    // 100 ms at 100 ms per second: 10 ms of work more
    let more = 0;
    while (budget.allows('192.0.2.1')) {
      more++;
      budget.charge('192.0.2.1', 1);
    }
    expect(more).toBe(10);
  });

  it('keeps a share for other sources while one floods', () => {
    const time = clock();
    const budget = new SnmpWorkBudget({ msPerSecond: 100, burstMs: 40, perAddressShare: 0.5, now: time.now });
    let flooder = 0;
    while (budget.allows('198.51.100.7')) {
      flooder++;
      budget.charge('198.51.100.7', 1);
    }
    expect(flooder).toBe(20);
    expect(budget.allows('192.0.2.1')).toBe(true);
  });

  it('pays an expensive request back with time before reading more', () => {
    const time = clock();
    const budget = new SnmpWorkBudget({ msPerSecond: 100, burstMs: 10, perAddressShare: 1, now: time.now });
    budget.charge('192.0.2.1', 30);
    expect(budget.allows('192.0.2.1')).toBe(false);
    time.advance(200);
    expect(budget.allows('192.0.2.1')).toBe(false);
    time.advance(1);
    expect(budget.allows('192.0.2.1')).toBe(true);
  });

  it('tracks a bounded number of sources, forgetting the oldest (the total still bounds them all)', () => {
    const time = clock();
    const budget = new SnmpWorkBudget({ msPerSecond: 100, burstMs: 100, perAddressShare: 0.1, maxAddresses: 2, now: time.now });
    budget.charge('192.0.2.1', 10);
    expect(budget.allows('192.0.2.1')).toBe(false);
    budget.charge('192.0.2.2', 1);
    budget.charge('192.0.2.3', 1);
    expect(budget.allows('192.0.2.1')).toBe(true);
  });
});
