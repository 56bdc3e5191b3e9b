import { describe, expect, it } from 'vitest';
import type { ShareGauges } from '@dms/core';
import { isoSeconds, shareExposition, shareGauges } from './share-metrics.js';

const share = (id: number, fields: Partial<ShareGauges> = {}): ShareGauges => ({
  id,
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
});

describe('share exposition', () => {
  it('issue 47: at most one series a gauge and share, none for what is not known, labels escaped', async () => {
    const known = share(1, {
      name: 'a "quoted" \\ name\nsecond line',
      pool_name: 'pool',
      health: 'ok',
      capacity_bytes: 2 ** 50,
      free_bytes: 10,
      file_count: 3,
      file_size_sum: 30,
      last_tested_at: '2026-11-29T01:15:00.250Z',
      last_scanned_at: '2026-11-28T23:00:00.000Z',
      full_at: '2027-01-01T00:00:00.000Z',
    });
    const text = (await shareExposition(async () => [known, share(2)])()).toString('utf8');
    const labels = '{share_id="1",share="a \\"quoted\\" \\\\ name\\nsecond line",nas="nas",pool="pool"}';
    expect(text).toContain(`dms_share_capacity_bytes${labels} ${2 ** 50}\n`);
    expect(text).toContain(`dms_share_healthy${labels} 1\n`);
    expect(text).toContain(`dms_share_free_bytes${labels} 10\n`);
    expect(text).toContain(`dms_share_files${labels} 3\n`);
    expect(text).toContain(`dms_share_last_test_timestamp_seconds${labels} 1795914900.25\n`);
    expect(text).toContain(`dms_share_full_timestamp_seconds${labels} ${Date.parse('2027-01-01T00:00:00.000Z') / 1000}\n`);
    expect(text.split('\n').filter((line) => line.startsWith('dms_share_'))).toHaveLength(shareGauges.length);
    expect(text).not.toContain('share_id="2"');
    expect(text.match(/^# TYPE dms_share_\w+ gauge$/gm)).toHaveLength(shareGauges.length);
  });

  it('reads stored times as Date.parse does, and other forms through it', () => {
    for (const at of ['2026-11-29T01:15:00.250Z', '1999-12-31T23:59:59.999Z', '2026-02-28T00:00:00.000Z']) expect(isoSeconds(at)).toBe(Date.parse(at) / 1000);
    expect(isoSeconds('2026-11-29T01:15:00Z')).toBe(Date.parse('2026-11-29T01:15:00Z') / 1000);
    expect(isoSeconds('2026-11-29T02:15:00.000+01:00')).toBe(Date.parse('2026-11-29T01:15:00.000Z') / 1000);
  });
});

describe('share exposition numbers', () => {
  it('writes whole numbers, zero and fractions as JavaScript prints them', async () => {
    const values = [0, 7, 10, 99, 1_000_000_007, Number.MAX_SAFE_INTEGER];
    const rows = values.map((value, i) => share(i + 1, { capacity_bytes: value, free_bytes: 0 }));
    const text = (await shareExposition(async () => rows)()).toString('utf8');
    const written = [...text.matchAll(/^dms_share_capacity_bytes\{[^}]*\} (\S+)$/gm)].map((match) => match[1]);
    expect(written).toEqual(values.map(String));
  });
});
