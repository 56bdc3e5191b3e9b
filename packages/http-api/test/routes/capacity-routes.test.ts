import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Capacity, ShareScan } from '@dms/core';
import { createTestApp, type TestApp } from '../../src/testing/test-app.js';
import { addNas, addPool, addShare, expectModelError, joinPool, readJson, type Nas, type NasShare, type Pool } from '../../src/testing/fixtures.js';

/**
 * A share's scan history (GET /nas_shares/{nas_share_id}/scans) and GET /statistics/capacity
 * (issue 23, docs/decisions/090-health-scans-capacity.md) over REST: two real scans of a local share with files added between
 * them give two rows and their growth, per NAS and per pool.
 */

interface ScanCollection {
  count: number;
  scans: ShareScan[];
}

const api = (path: string) => `/api/v2${path}`;

describe('scan history and capacity', () => {
  let t: TestApp;
  let root: string;
  let nas: Nas;
  let pool: Pool;
  let share: NasShare;
  /** A share of the same NAS never scanned: counted as not scanned, in no sum. */
  let unscanned: NasShare;
  /** The two scans, oldest first. */
  let first: ShareScan;
  let second: ShareScan;

  async function scan(ref: string | number): Promise<void> {
    const started = await t.call('PUT', api(`/nas_shares/${ref}/scan`), { auth: t.basic });
    expect(started.status, await started.clone().text()).toBe(202);
    const { job_id: jobId } = await readJson<{ job_id: string }>(started);
    for (;;) {
      const res = await t.call('GET', api(`/jobs/${jobId}?wait=10`), { auth: t.basic });
      if (res.status === 200) {
        expect(await res.json()).toMatchObject({ status: 'completed' });
        return;
      }
      expect(res.status).toBe(202);
    }
  }

  async function scans(query = '', ref: string | number = share.id): Promise<ScanCollection> {
    const res = await t.call('GET', api(`/nas_shares/${ref}/scans${query}`), { auth: t.basic });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    return JSON.parse(text) as ScanCollection;
  }

  async function capacity(query = ''): Promise<Capacity> {
    const res = await t.call('GET', api(`/statistics/capacity${query}`), { auth: t.basic });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    return JSON.parse(text) as Capacity;
  }

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'dms-capacity-'));
    mkdirSync(join(root, 'data', 'sub'), { recursive: true });
    writeFileSync(join(root, 'data', 'a.txt'), 'abc');
    writeFileSync(join(root, 'data', 'sub', 'b.txt'), 'defgh');
    t = await createTestApp({ localRoots: [root] });
    nas = await addNas(t, { type: 'local', host: 'localhost' });
    pool = await addPool(t);
    share = await addShare(t, nas, { path: 'data' });
    unscanned = await addShare(t, nas, { path: 'data' });
    await joinPool(t, pool, [share.id]);
    await t.engine.start();

    await scan(share.id);
    writeFileSync(join(root, 'data', 'c.txt'), 'ijklmnopqr');
    writeFileSync(join(root, 'data', 'sub', 'd.txt'), 'st');
    await scan(share.name);
    const history = await scans('?sort_by=at');
    [first, second] = history.scans as [ShareScan, ShareScan];
  });
  afterAll(async () => {
    await t.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('keeps every completed scan: two rows, newest first, with what each found and how long it took', async () => {
    const history = await scans();
    expect(history.count).toBe(2);
    expect(history.scans.map((row) => Object.keys(row).sort())).toEqual([
      ['at', 'capacity_bytes', 'duration_ms', 'file_count', 'file_size_sum', 'free_bytes', 'id'],
      ['at', 'capacity_bytes', 'duration_ms', 'file_count', 'file_size_sum', 'free_bytes', 'id'],
    ]);
    expect(history.scans).toEqual([second, first]);
    expect(first).toMatchObject({ file_count: 2, file_size_sum: 8 });
    expect(second).toMatchObject({ file_count: 4, file_size_sum: 20 });
    expect(Date.parse(second.at)).toBeGreaterThanOrEqual(Date.parse(first.at));
    for (const row of history.scans) expect(row.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it('shows the latest scan on the share: its counts and last_scanned_at; a share never scanned says null', async () => {
    const shown = await readJson<NasShare>(await t.call('GET', api(`/nas_shares/${share.id}`), { auth: t.basic }));
    expect(shown).toMatchObject({ file_count: 4, file_size_sum: 20, last_scanned_at: second.at });
    const never = await readJson<NasShare>(await t.call('GET', api(`/nas_shares/${unscanned.id}`), { auth: t.basic }));
    expect(never).toMatchObject({ file_count: 0, file_size_sum: 0, last_scanned_at: null });
    expect(await scans('', unscanned.id)).toEqual({ count: 0, scans: [] });
  });

  it('takes the list contract: paging, sort_by, filters; the share by id or name; 404 for an unknown share; 400 for an unknown parameter', async () => {
    expect(await scans('?limit=1')).toEqual({ count: 2, scans: [second] });
    expect(await scans('?page=2&per_page=1')).toEqual({ count: 2, scans: [first] });
    expect((await scans('?sort_by=file_count:desc')).scans).toEqual([second, first]);
    expect(await scans('?file_count=%3E2')).toEqual({ count: 1, scans: [second] });
    expect(await scans(`?at=%3C%3D${encodeURIComponent(first.at)}`)).toEqual({ count: 1, scans: [first] });
    expect(await scans('', share.name)).toEqual(await scans());
    await expectModelError(await t.call('GET', api('/nas_shares/987654/scans'), { auth: t.basic }), 404, 'nas_share_id', 'not_found');
    const refused = await expectModelError(await t.call('GET', api(`/nas_shares/${share.id}/scans?path=x`), { auth: t.basic }), 400, 'path', 'invalid');
    expect(refused.messages[0]).toContain('accepted: limit, offset, page, per_page, sort_by, id, at, file_count, file_size_sum, duration_ms');
  });

  it('sums the latest scans per NAS and per pool, with their growth over the period', async () => {
    const before = Date.now();
    const answer = await capacity('?days=7');
    const grown = { file_count: 4, file_size_sum: 20, growth: { file_count: 2, file_size_sum: 12 } };
    expect(answer.period_days).toBe(7);
    expect(Math.abs(Date.parse(answer.since) - (before - 7 * 24 * 3600_000))).toBeLessThan(60_000);
    expect(answer.totals).toMatchObject({ ...grown, shares_scanned: 1, shares_not_scanned: 1 });
    expect(answer.nas.find((row) => row.nas_id === nas.id)).toMatchObject({
      nas_id: nas.id,
      name: nas.name,
      ...grown,
      shares_scanned: 1,
      shares_not_scanned: 1,
    });
    expect(answer.pools.find((row) => row.pool_id === pool.id)).toMatchObject({
      pool_id: pool.id,
      name: pool.name,
      ...grown,
      shares_scanned: 1,
      shares_not_scanned: 0,
    });
    expect((await capacity()).period_days).toBe(30);
  });

  it('measures growth from each share’s last scan at or before the period’s start (three scans forty days apart)', async () => {
    let offsetMs = 0;
    const dir = join(root, 'growing');
    mkdirSync(dir);
    const later = await createTestApp({ localRoots: [root], clock: () => new Date(Date.now() + offsetMs) });
    try {
      const grower = await addShare(later, await addNas(later, { type: 'local', host: 'localhost' }), { path: 'growing' });
      await later.engine.start();
      const scanLater = async (files: number) => {
        for (let i = 0; i < files; i += 1) writeFileSync(join(dir, `f${offsetMs}-${i}.txt`), 'x'.repeat(10));
        const started = await later.call('PUT', api(`/nas_shares/${grower.id}/scan`), { auth: later.basic });
        const { job_id: jobId } = await readJson<{ job_id: string }>(started);
        for (;;) {
          const res = await later.call('GET', api(`/jobs/${jobId}?wait=10`), { auth: later.basic });
          if (res.status === 200) return;
          expect(res.status).toBe(202);
        }
      };
      const day = 24 * 3600_000;
      await scanLater(1);
      offsetMs += 40 * day;
      await scanLater(2);
      offsetMs += 40 * day;
      await scanLater(4);
      const growth = async (days: number) =>
        (await readJson<Capacity>(await later.call('GET', api(`/statistics/capacity?days=${days}`), { auth: later.basic }))).totals;
      // 1, then 3, then 7 files of 10 bytes.
      expect(await growth(30)).toMatchObject({ file_count: 7, file_size_sum: 70, growth: { file_count: 4, file_size_sum: 40 } });
      expect(await growth(60)).toMatchObject({ file_count: 7, growth: { file_count: 6, file_size_sum: 60 } });
      expect(await growth(1)).toMatchObject({ file_count: 7, growth: { file_count: 4 } });
      // Longer than the history: from its first scan.
      expect(await growth(365)).toMatchObject({ growth: { file_count: 6 } });
      const history = await readJson<ScanCollection>(await later.call('GET', api(`/nas_shares/${grower.id}/scans?sort_by=at`), { auth: later.basic }));
      expect(history.scans.map((row) => row.file_count)).toEqual([1, 3, 7]);
    } finally {
      await later.close();
    }
  });

  it.each([['days=0'], ['days=3651'], ['days=2.5'], ['days=week'], ['days=1&days=2'], ['days=%00']])('answers ?%s with 400 on days', async (query) => {
    const body = await expectModelError(await t.call('GET', api(`/statistics/capacity?${query}`), { auth: t.basic }), 400, 'days', 'invalid');
    expect(body.messages).toEqual(['days must be one integer from 1 to 3650']);
  });

  it('answers 400 for any other parameter, naming days', async () => {
    const body = await expectModelError(await t.call('GET', api('/statistics/capacity?period=7'), { auth: t.basic }), 400, 'period', 'invalid');
    expect(body.messages).toEqual(["unknown query parameter 'period'; accepted: days"]);
  });
});
