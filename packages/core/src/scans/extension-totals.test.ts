import { describe, expect, it } from 'vitest';
import { ExtensionTotals } from './extension-totals.js';

describe('ExtensionTotals', () => {
  it('holds a bounded number of extensions against hostile names, losing no file or byte', () => {
    const totals = new ExtensionTotals(128);
    for (let index = 0; index < 10_000; index += 1) totals.add(`e${index}`, index);
    totals.add('big', 1e12);
    const { top, other } = totals.ranked(50);
    expect(top).toHaveLength(50);
    expect(top[0]).toEqual({ extension: 'big', files: 1, bytes: 1e12 });
    const files = top.reduce((sum, row) => sum + row.files, other.files);
    const bytes = top.reduce((sum, row) => sum + row.bytes, other.bytes);
    expect(files).toBe(10_001);
    expect(bytes).toBe(1e12 + (9_999 * 10_000) / 2);
  });

  it('is exact while the share has no more extensions than it holds', () => {
    const totals = new ExtensionTotals(4);
    for (const [extension, bytes] of [
      ['pdf', 5],
      ['txt', 1],
      ['pdf', 5],
      ['', 2],
    ] as const)
      totals.add(extension, bytes);
    expect(totals.ranked(2)).toEqual({
      top: [
        { extension: 'pdf', files: 2, bytes: 10 },
        { extension: '', files: 1, bytes: 2 },
      ],
      other: { files: 1, bytes: 1 },
    });
  });
});
