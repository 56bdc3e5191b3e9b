import { describe, expect, it } from 'vitest';
import { byName, compareNames } from './name-order.js';

describe('the console’s name order', () => {
  it('sorts names case-insensitively, not capitals first', () => {
    expect(byName(['beta', 'Gamma', 'alpha', 'Alpha2', 'delta'], (name) => name)).toEqual(['alpha', 'Alpha2', 'beta', 'delta', 'Gamma']);
  });

  it('keeps a fixed order between names equal but for case, whatever order they came in', () => {
    expect(byName(['media', 'Media', 'MEDIA'], (name) => name)).toEqual(['MEDIA', 'Media', 'media']);
    expect(byName(['MEDIA', 'media', 'Media'], (name) => name)).toEqual(['MEDIA', 'Media', 'media']);
    expect(compareNames('x', 'x')).toBe(0);
  });

  it('sorts objects by the name it is given, leaving the input as it was', () => {
    const rows = [
      { id: 1, name: 'Zeta' },
      { id: 2, name: 'eta' },
    ];
    expect(byName(rows, (row) => row.name).map((row) => row.id)).toEqual([2, 1]);
    expect(rows.map((row) => row.id)).toEqual([1, 2]);
  });
});
