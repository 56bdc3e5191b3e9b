import { describe, expect, it } from 'vitest';
import { stringsWithNul } from './strings-with-nul.js';

describe('stringsWithNul (security round 2, finding 9)', () => {
  it('finds NUL in any string of a body, in the order written, with its path', () => {
    expect(stringsWithNul({ a: 'x\u0000', b: [{ c: 'ok' }, { c: '\u0000' }], d: { e: 'y\u0000' }, f: 1, g: null })).toEqual([['a'], ['b', 1, 'c'], ['d', 'e']]);
    expect(stringsWithNul({ a: 'clean', b: ['x', { c: 'y' }] })).toEqual([]);
  });

  it('walks deep bodies without recursion, and stops after 20 finds', () => {
    let deep: unknown = 'end\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(stringsWithNul({ deep })[0]).toHaveLength(100_001);
    expect(stringsWithNul({ many: Array.from({ length: 1000 }, () => '\u0000') })).toHaveLength(20);
  });
});
