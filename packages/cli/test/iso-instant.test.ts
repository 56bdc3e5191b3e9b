import { describe, expect, it } from 'vitest';
import { parseIsoInstant } from '../src/iso-instant.js';

describe('parseIsoInstant (dms audit list --since)', () => {
  it('reads a date, a date and time, fractions and offsets as the UTC instant timestamps are stored in', () => {
    expect(parseIsoInstant('2025-06-01')).toBe('2025-06-01T00:00:00.000Z');
    expect(parseIsoInstant('2025-06-01T14:30')).toBe('2025-06-01T14:30:00.000Z');
    expect(parseIsoInstant('2025-06-01T14:30:05Z')).toBe('2025-06-01T14:30:05.000Z');
    expect(parseIsoInstant('2025-06-01T16:30:05.25+02:00')).toBe('2025-06-01T14:30:05.250Z');
    expect(parseIsoInstant('2025-06-01T00:30:00-0100')).toBe('2025-06-01T01:30:00.000Z');
    expect(parseIsoInstant('2025-06-01T00:30:00+01:00')).toBe('2025-05-31T23:30:00.000Z');
    expect(parseIsoInstant('2024-02-29')).toBe('2024-02-29T00:00:00.000Z');
    expect(parseIsoInstant('0001-01-01')).toBe('0001-01-01T00:00:00.000Z');
  });

  it('refuses what is not an ISO 8601 date or an impossible one', () => {
    for (const text of [
      '',
      'yesterday',
      '1717200000',
      '2025-6-1',
      '2025-06-01 14:30',
      '2025-02-30',
      '2025-13-01',
      '2025-06-01T24:00',
      '2025-06-01T14:60',
      '2025-06-01T14:30+25:00',
      '2025-06-01Z',
    ]) {
      expect(parseIsoInstant(text), text).toBeUndefined();
    }
  });
});
