import { describe, expect, it } from 'vitest';
import { bulkShape, oidLength } from './snmp-request-limits.js';

describe('bulkShape', () => {
  it('finding 20.1: max-repetitions 2^31 - 1 becomes the varbind cap, never a loop bound', () => {
    expect(bulkShape(0, 2 ** 31 - 1, 1, 100)).toEqual({ nonRepeaters: 0, maxRepetitions: 100 });
  });

  it('treats negative fields as 0 and non-repeaters beyond the varbinds as all of them (RFC 3416 §4.2.3)', () => {
    expect(bulkShape(-1, -5, 1, 100)).toEqual({ nonRepeaters: 0, maxRepetitions: 0 });
    expect(bulkShape(2 ** 31 - 1, 10, 3, 100)).toEqual({ nonRepeaters: 3, maxRepetitions: 10 });
    expect(bulkShape(2 ** 31 - 1, 10, 500, 100)).toEqual({ nonRepeaters: 100, maxRepetitions: 10 });
  });
});

describe('oidLength', () => {
  it('counts sub-identifiers with or without a leading dot', () => {
    expect(oidLength('1.3.6.1.2.1.1.1.0')).toBe(9);
    expect(oidLength('.1.3.6.1')).toBe(4);
    expect(oidLength('')).toBe(0);
  });
});
