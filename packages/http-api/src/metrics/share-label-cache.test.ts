import { describe, expect, it } from 'vitest';
import type { ShareGaugeRow } from '@dms/core';
import { ShareLabelCache } from './share-label-cache.js';

const row = (id: number, name: string, nas: string, pool: string | null): ShareGaugeRow => [id, name, nas, pool, 'ok', 1, 1, 0, 0, null, null, null];

/** One scrape of `rows` through `cache`: each row's labels as text. */
function scrape(cache: ShareLabelCache, rows: ShareGaugeRow[]): Buffer[] {
  cache.beginScrape();
  const labels = rows.map((share) => cache.labelOf(share));
  cache.endScrape(rows.length);
  return labels;
}

describe('share label cache', () => {
  it('keeps a share’s labels while its id and names stay, and makes new ones when the share, its NAS or its pool is renamed or it leaves its pool', () => {
    const cache = new ShareLabelCache();
    const [first] = scrape(cache, [row(1, 'a', 'nas', 'pool')]);
    expect(first!.toString()).toBe('{share_id="1",share="a",nas="nas",pool="pool"} ');
    // The same names, read again as new strings: the same bytes, not encoded again.
    expect(scrape(cache, [row(1, ['a'].join(''), 'nas', 'pool')])[0]).toBe(first);
    expect(scrape(cache, [row(1, 'b', 'nas', 'pool')])[0]!.toString()).toBe('{share_id="1",share="b",nas="nas",pool="pool"} ');
    expect(scrape(cache, [row(1, 'b', 'nas 2', 'pool')])[0]!.toString()).toBe('{share_id="1",share="b",nas="nas 2",pool="pool"} ');
    expect(scrape(cache, [row(1, 'b', 'nas 2', 'west')])[0]!.toString()).toBe('{share_id="1",share="b",nas="nas 2",pool="west"} ');
    expect(scrape(cache, [row(1, 'b', 'nas 2', null)])[0]!.toString()).toBe('{share_id="1",share="b",nas="nas 2",pool=""} ');
    // In a pool named "" and in none are told apart by the read, and written alike.
    expect(scrape(cache, [row(1, 'b', 'nas 2', '')])[0]!.toString()).toBe('{share_id="1",share="b",nas="nas 2",pool=""} ');
  });

  it('drops the labels of a share a scrape no longer reads (deleted), and labels a new share at once', () => {
    const cache = new ShareLabelCache();
    scrape(cache, [row(1, 'a', 'n', null), row(2, 'b', 'n', null), row(3, 'c', 'n', null)]);
    expect(cache.size).toBe(3);
    const labels = scrape(cache, [row(1, 'a', 'n', null), row(3, 'c', 'n', null), row(4, 'd', 'n', null)]);
    expect(labels.map(String)).toEqual([
      '{share_id="1",share="a",nas="n",pool=""} ',
      '{share_id="3",share="c",nas="n",pool=""} ',
      '{share_id="4",share="d",nas="n",pool=""} ',
    ]);
    expect(cache.size).toBe(3);
    // A share id used again (a restored backup) with other names is not mistaken for the old share.
    expect(String(scrape(cache, [row(2, 'e', 'm', 'p')])[0])).toBe('{share_id="2",share="e",nas="m",pool="p"} ');
    expect(cache.size).toBe(1);
  });

  it('escapes backslash, double quote and line feed in every name', () => {
    const [labels] = scrape(new ShareLabelCache(), [row(7, 'a "b" \\ c\nd', 'n"\\', 'p\n')]);
    expect(String(labels)).toBe('{share_id="7",share="a \\"b\\" \\\\ c\\nd",nas="n\\"\\\\",pool="p\\n"} ');
  });
});
