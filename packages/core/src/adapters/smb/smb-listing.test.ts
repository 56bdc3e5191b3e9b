import { describe, expect, it } from 'vitest';
import { parseListingEntry } from './smb-listing.js';

// Lines as smbclient 4.17 prints them (captured from a real Samba).
const lines = {
  dot: '  .                                   D        0  Sat Nov 21 19:34:53 2026',
  dir: '  sub dir                             D        0  Sat Nov 21 19:34:53 2026',
  leadingBlanks: '    lead                              D        0  Sat Nov 21 19:35:18 2026',
  hidden: '  .hidden                             H        0  Sat Nov 21 19:35:18 2026',
  lookalike: '  x  D                                N        5  Sat Nov 21 19:35:18 2026',
  long: '  this is a rather long file name exceeding thirty chars.txt      N        7  Sat Nov 21 19:35:18 2026',
  big: '  big.bin                             N 12345678901  Sat Nov 21 19:35:18 2026',
  archive: '  a.txt                               A        6  Mon Jan  1 00:00:00 2024',
};

describe('parseListingEntry', () => {
  it.each([
    [lines.dot, '.', 'D', 0],
    [lines.dir, 'sub dir', 'D', 0],
    [lines.leadingBlanks, '  lead', 'D', 0],
    [lines.hidden, '.hidden', 'H', 0],
    [lines.lookalike, 'x  D', 'N', 5],
    [lines.long, 'this is a rather long file name exceeding thirty chars.txt', 'N', 7],
    [lines.big, 'big.bin', 'N', 12345678901],
    [lines.archive, 'a.txt', 'A', 6],
  ])('%s', (line, name, attributes, size) => {
    expect(parseListingEntry(line)).toMatchObject({ name, attributes, size, isDirectory: attributes.includes('D') });
  });

  it('reads the date as the UTC time smbclient printed it in (it runs with TZ=UTC)', () => {
    expect(parseListingEntry(lines.archive)?.modifiedMs).toBe(Date.UTC(2024, 0, 1, 0, 0, 0));
    expect(parseListingEntry(lines.big)?.modifiedMs).toBe(Date.UTC(2026, 10, 21, 19, 35, 18));
    expect(parseListingEntry(lines.big.replace('Nov', 'Foo'))).toBeUndefined();
  });

  it('rejects what is not an entry', () => {
    expect(parseListingEntry('\\sub dir')).toBeUndefined();
    expect(parseListingEntry('\t\t264212084 blocks of size 1024. 82211380 blocks available')).toBeUndefined();
    expect(parseListingEntry('  garbage')).toBeUndefined();
  });
});
