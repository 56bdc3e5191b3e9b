import { describe, expect, it } from 'vitest';
import type { ShareGaugeRow } from '@dms/core';
import { ShareGaugeTable, shareGauges } from './share-metrics.js';
import { ShareLabelCache } from './share-label-cache.js';

interface ShareFields {
  name: string;
  nas_name: string;
  pool_name: string | null;
  health: ShareGaugeRow[4];
  capacity_bytes: number | null;
  free_bytes: number | null;
  file_count: number;
  file_size_sum: number;
  last_tested_at: number | null;
  last_scanned_at: number | null;
  full_at: number | null;
}

const share = (id: number, fields: Partial<ShareFields> = {}): ShareGaugeRow => {
  const f: ShareFields = {
    name: `share-${id}`,
    nas_name: 'nas',
    pool_name: null,
    health: 'unknown',
    capacity_bytes: null,
    free_bytes: null,
    file_count: 0,
    file_size_sum: 0,
    last_tested_at: null,
    last_scanned_at: null,
    full_at: null,
    ...fields,
  };
  return [
    id,
    f.name,
    f.nas_name,
    f.pool_name,
    f.health,
    f.capacity_bytes,
    f.free_bytes,
    f.file_count,
    f.file_size_sum,
    f.last_tested_at,
    f.last_scanned_at,
    f.full_at,
  ];
};

/** The text of `rows` as a scrape writes it; `expected` small to make the table grow. */
function exposition(rows: readonly ShareGaugeRow[], labels = new ShareLabelCache(), expected = 1): string {
  const table = new ShareGaugeTable(expected);
  labels.beginScrape();
  for (const row of rows) table.add(row, labels.labelOf(row));
  labels.endScrape(table.count);
  const out = Buffer.alloc(table.bound());
  return out.subarray(0, table.write(out, 0)).toString('utf8');
}

describe('share exposition', () => {
  it('issue 47: at most one series a gauge and share, none for what is not known, labels escaped', () => {
    const known = share(1, {
      name: 'a "quoted" \\ name\nsecond line',
      pool_name: 'pool',
      health: 'ok',
      capacity_bytes: 2 ** 50,
      free_bytes: 10,
      file_count: 3,
      file_size_sum: 30,
      last_tested_at: Date.parse('2026-11-29T01:15:00.250Z') / 1000,
      last_scanned_at: Date.parse('2026-11-28T23:00:00.000Z') / 1000,
      full_at: Date.parse('2027-01-01T00:00:00.000Z') / 1000,
    });
    const text = exposition([known, share(2)]);
    const labels = '{share_id="1",share="a \\"quoted\\" \\\\ name\\nsecond line",nas="nas",pool="pool"}';
    expect(text).toContain(`dms_share_capacity_bytes${labels} ${2 ** 50}\n`);
    expect(text).toContain(`dms_share_healthy${labels} 1\n`);
    expect(text).toContain(`dms_share_free_bytes${labels} 10\n`);
    expect(text).toContain(`dms_share_files${labels} 3\n`);
    expect(text).toContain(`dms_share_used_bytes${labels} 30\n`);
    expect(text).toContain(`dms_share_last_test_timestamp_seconds${labels} 1795914900.25\n`);
    expect(text).toContain(`dms_share_last_scan_timestamp_seconds${labels} 1795906800\n`);
    expect(text).toContain(`dms_share_full_timestamp_seconds${labels} ${Date.parse('2027-01-01T00:00:00.000Z') / 1000}\n`);
    expect(text.split('\n').filter((line) => line.startsWith('dms_share_'))).toHaveLength(shareGauges.length);
    expect(text).not.toContain('share_id="2"');
    expect(text.match(/^# TYPE dms_share_\w+ gauge$/gm)).toHaveLength(shareGauges.length);
  });

  it('issue 47: files and used bytes only once scanned; healthy 0 after a failed test, none before a test', () => {
    const text = exposition([share(1, { file_count: 5, file_size_sum: 50, health: 'unreachable' }), share(2, { health: 'unknown' })]);
    expect(text).not.toMatch(/^dms_share_(files|used_bytes)\{/m);
    expect(text).toContain('dms_share_healthy{share_id="1",share="share-1",nas="nas",pool=""} 0\n');
    expect(text).not.toContain('share_id="2"');
  });

  it('writes every share and series in the order read, also past the expected count', () => {
    const rows = Array.from({ length: 300 }, (_, i) => share(i + 1, { capacity_bytes: i, last_tested_at: 1_700_000_000 + i / 1000 }));
    const text = exposition(rows, new ShareLabelCache(), 7);
    const ids = (name: string) => [...text.matchAll(new RegExp(`^${name}\\{share_id="(\\d+)"`, 'gm'))].map((match) => Number(match[1]));
    expect(ids('dms_share_capacity_bytes')).toEqual(rows.map((row) => row[0]));
    expect(ids('dms_share_last_test_timestamp_seconds')).toEqual(rows.map((row) => row[0]));
    expect(text).toContain('dms_share_last_test_timestamp_seconds{share_id="300",share="share-300",nas="nas",pool=""} 1700000000.299\n');
  });
});

describe('share exposition numbers', () => {
  it('writes whole numbers, zero and fractions as JavaScript prints them', () => {
    const values = [0, 7, 10, 99, 1_000_000_007, Number.MAX_SAFE_INTEGER];
    const rows = values.map((value, i) => share(i + 1, { capacity_bytes: value, free_bytes: 0 }));
    const written = [...exposition(rows).matchAll(/^dms_share_capacity_bytes\{[^}]*\} (\S+)$/gm)].map((match) => match[1]);
    expect(written).toEqual(values.map(String));
  });
});
