import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTools } from '@dms/core/testing';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { addNas, addPool, addShare, joinPool, raiseAlert, readJson, type Nas, type NasShare } from '../testing/fixtures.js';

/**
 * The per-share gauges (docs/decisions/141-share-capacity-metrics.md,
 * docs/decisions/180-metrics-per-share-and-activity.md), on both adapters (vitest projects sqlite
 * and postgres): real tests and a real scan of local shares, a scrape shows each share's figures
 * with escaped labels, nothing for what is not known yet, and a deleted share's series go.
 */

const api = (path: string) => `/api/v2${path}`;
const promtool = requireTools(['promtool'], 'apt-get install -y prometheus');

/** Label values as the Prometheus text format writes them: backslash, double quote and line feed escaped. */
const escaped = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

describe('share capacity metrics', () => {
  let t: TestApp;
  let root: string;
  let nas: Nas;
  let pooled: NasShare;
  let alone: NasShare;
  let never: NasShare;
  let metricsKey: string;

  async function testShare(share: NasShare, action: 'test' | 'scan' = 'test'): Promise<NasShare> {
    const started = await t.call('PUT', api(`/nas_shares/${share.id}/${action}`), { auth: t.basic });
    expect(started.status, await started.clone().text()).toBe(202);
    const { job_id: jobId } = await readJson<{ job_id: string }>(started);
    for (;;) {
      const res = await t.call('GET', api(`/jobs/${jobId}?wait=10`), { auth: t.basic });
      if (res.status === 200) break;
      expect(res.status).toBe(202);
    }
    return readJson<NasShare>(await t.call('GET', api(`/nas_shares/${share.id}`), { auth: t.basic }));
  }

  async function scrape(): Promise<string> {
    const res = await t.call('GET', '/metrics', { auth: metricsKey });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    return text;
  }

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'dms-capacity-metrics-'));
    mkdirSync(join(root, 'a'));
    mkdirSync(join(root, 'b'));
    writeFileSync(join(root, 'a', 'one.bin'), Buffer.alloc(1000));
    writeFileSync(join(root, 'a', 'two.bin'), Buffer.alloc(234));
    t = await createTestApp({ localRoots: [root] });
    nas = await addNas(t, { type: 'local', host: 'localhost', name: 'nas "one"' });
    const pool = await addPool(t, { name: 'pool\\west' });
    pooled = await addShare(t, nas, { path: 'a', name: 'share "a" \\ raw' });
    alone = await addShare(t, nas, { path: 'b', name: 'share-b' });
    never = await addShare(t, nas, { path: 'b', name: 'share-never-tested' });
    await joinPool(t, pool, [pooled.id]);
    metricsKey = await t.bearer('metrics/index');
    await t.engine.start();
    pooled = await testShare(pooled);
    pooled = await testShare(pooled, 'scan');
    alone = await testShare(alone);
  });

  afterAll(async () => {
    await t?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("issue 42 item 1: a scrape after a capacity reading shows each share's size and free space, labelled and escaped", async () => {
    expect(pooled.capacity_bytes).toBeGreaterThan(0);
    expect(alone.free_bytes).not.toBeNull();
    const text = await scrape();
    const labels = (share: NasShare, pool: string) =>
      `share_id="${share.id}",share="${escaped(share.name)}",nas="${escaped(nas.name)}",pool="${escaped(pool)}"`;
    expect(text).toContain('# TYPE dms_share_capacity_bytes gauge');
    expect(text).toContain('# TYPE dms_share_free_bytes gauge');
    expect(text).toContain(`dms_share_capacity_bytes{${labels(pooled, 'pool\\west')}} ${pooled.capacity_bytes}\n`);
    expect(text).toContain(`dms_share_free_bytes{${labels(pooled, 'pool\\west')}} ${pooled.free_bytes}\n`);
    expect(text).toContain(`dms_share_capacity_bytes{${labels(alone, '')}} ${alone.capacity_bytes}\n`);
    expect(text).toContain(`dms_share_free_bytes{${labels(alone, '')}} ${alone.free_bytes}\n`);
    // One series per share read, none for a share never read.
    expect(text.match(/^dms_share_capacity_bytes\{/gm)).toHaveLength(2);
    expect(text.match(/^dms_share_free_bytes\{/gm)).toHaveLength(2);
    expect(text).not.toContain(`share_id="${never.id}"`);
  });

  it("issue 47: each share's files, used bytes, health and last test and scan, only what is known", async () => {
    const text = await scrape();
    const series = (name: string, share: NasShare) => new RegExp(`^${name}\\{share_id="${share.id}",[^}]*\\} (\\S+)$`, 'm').exec(text)?.[1];
    // The scan counted two files of 1,000 and 234 bytes.
    expect(series('dms_share_files', pooled)).toBe('2');
    expect(series('dms_share_used_bytes', pooled)).toBe('1234');
    expect(series('dms_share_healthy', pooled)).toBe('1');
    expect(Number(series('dms_share_last_test_timestamp_seconds', pooled))).toBe(Date.parse(pooled.last_tested_at!) / 1000);
    expect(Number(series('dms_share_last_scan_timestamp_seconds', pooled))).toBe(Date.parse(pooled.last_scanned_at!) / 1000);
    // Tested, never scanned: no files, used bytes or last scan.
    expect(series('dms_share_healthy', alone)).toBe('1');
    expect(series('dms_share_files', alone)).toBeUndefined();
    expect(series('dms_share_used_bytes', alone)).toBeUndefined();
    expect(series('dms_share_last_scan_timestamp_seconds', alone)).toBeUndefined();
    // No forecast yet: no days until full.
    expect(text).not.toMatch(/^dms_share_full_timestamp_seconds\{/m);
    // Never tested: no series at all.
    expect(text).not.toContain(`share_id="${never.id}"`);
  });

  it("issue 47: a share's forecast gives when it will be full: the share's days_until_full from the scrape's time", async () => {
    const fullAt = new Date(Date.now() + 12.5 * 86_400_000).toISOString();
    await t.storage.shares.saveForecast(alone.id, { samples: 3, days: 2, growth_bytes_per_day: 1000, full_at: fullAt });
    const shown = await readJson<NasShare>(await t.call('GET', api(`/nas_shares/${alone.id}`), { auth: t.basic }));
    const text = await scrape();
    expect(shown.days_until_full).toBeGreaterThan(12);
    const value = new RegExp(`^dms_share_full_timestamp_seconds\\{share_id="${alone.id}",[^}]*\\} (\\S+)$`, 'm').exec(text)?.[1];
    expect(Number(value)).toBe(Date.parse(fullAt) / 1000);
    // What a dashboard computes, (full - time()) / 86400, is the share's own figure (one decimal).
    expect(Math.abs((Number(value) * 1000 - Date.now()) / 86_400_000 - shown.days_until_full!)).toBeLessThanOrEqual(0.1);
    await t.storage.shares.saveForecast(alone.id, null);
    expect(await scrape()).not.toMatch(/^dms_share_full_timestamp_seconds\{/m);
  });

  it('issue 47: a failed test makes a share unhealthy; open alerts and unfinished jobs are counted by bounded labels', async () => {
    const broken = await addShare(t, nas, { path: 'b', name: 'share-broken' });
    rmSync(join(root, 'b'), { recursive: true });
    try {
      await testShare(broken);
    } finally {
      mkdirSync(join(root, 'b'));
    }
    await raiseAlert(t, broken, 'share_unreachable');
    await raiseAlert(t, broken, 'scan_failed', 'scan failed for the test');
    const text = await scrape();
    expect(text).toContain(`dms_share_healthy{share_id="${broken.id}",share="share-broken",nas="${escaped(nas.name)}",pool=""} 0\n`);
    expect(text).toMatch(/^dms_alerts_open\{source="share_unreachable",level="error"\} 1$/m);
    expect(text).toMatch(/^dms_alerts_open\{source="scan_failed",level="warning"\} 1$/m);
    // Every source at every level, 0 when none is open: 5 levels a source.
    expect(text).toMatch(/^dms_alerts_open\{source="storage_degraded",level="critical"\} 0$/m);
    expect(text.match(/^dms_alerts_open\{source="storage_degraded",/gm)).toHaveLength(5);
    // Nothing queued or working now; finished jobs are not counted.
    for (const kind of ['share_test', 'share_scan']) {
      for (const status of ['queued', 'working']) expect(text).toContain(`dms_jobs{kind="${kind}",status="${status}"} 0\n`);
    }
    expect(text).not.toMatch(/^dms_jobs\{[^}]*status="(?:completed|failed)"/m);
    // The tests and the scan that ran, by kind and outcome, and their steps.
    expect(Number(/^dms_job_duration_seconds_count\{kind="share_test",outcome="completed"\} (\d+)$/m.exec(text)?.[1])).toBeGreaterThanOrEqual(2);
    expect(Number(/^dms_job_duration_seconds_count\{kind="share_test",outcome="failed"\} (\d+)$/m.exec(text)?.[1])).toBeGreaterThanOrEqual(1);
    expect(Number(/^dms_job_duration_seconds_count\{kind="share_scan",outcome="completed"\} (\d+)$/m.exec(text)?.[1])).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/^dms_job_step_duration_seconds_count\{kind="share_test",step="[a-z_]+"\} [1-9]/m);
    // The scan reached the root, two files: at least the two files.
    expect(Number(/^dms_scan_entries_total (\d+)$/m.exec(text)?.[1])).toBeGreaterThanOrEqual(2);
  });

  it("issue 42 item 1: a deleted share's series go at the next scrape", async () => {
    const doomed = await testShare(await addShare(t, nas, { path: 'b', name: 'share-doomed' }));
    expect(await scrape()).toContain(`share_id="${doomed.id}"`);
    expect((await t.call('DELETE', api(`/nas_shares/${doomed.id}`), { auth: t.basic })).status).toBe(204);
    const text = await scrape();
    expect(text).not.toContain(`share_id="${doomed.id}"`);
    expect(text).toContain(`share_id="${alone.id}"`);
  });

  it('issue 47: a share renamed, its NAS or pool renamed, the share out of its pool, and a new share: the next scrape says so, each share once', async () => {
    const otherNas = await addNas(t, { type: 'local', host: 'localhost', name: 'nas-before' });
    const pool = await addPool(t, { name: 'pool-before' });
    const share = await testShare(await addShare(t, otherNas, { path: 'b', name: 'share-before' }));
    await joinPool(t, pool, [share.id]);
    const healthy = (text: string, id: number) => text.split('\n').filter((line) => line.startsWith(`dms_share_healthy{share_id="${id}",`));
    // Scraped once with the first names: what a scrape keeps from one to the next (share-label-cache.ts) holds them now.
    expect(healthy(await scrape(), share.id)).toEqual([`dms_share_healthy{share_id="${share.id}",share="share-before",nas="nas-before",pool="pool-before"} 1`]);
    const put = async (path: string, body: unknown) => expect((await t.call('PUT', api(path), { auth: t.basic, body })).status).toBe(200);
    await put(`/nas_shares/${share.id}`, { name: 'share-after' });
    expect(healthy(await scrape(), share.id)).toEqual([`dms_share_healthy{share_id="${share.id}",share="share-after",nas="nas-before",pool="pool-before"} 1`]);
    await put(`/nas/${otherNas.id}`, { name: 'nas-after' });
    expect(healthy(await scrape(), share.id)).toEqual([`dms_share_healthy{share_id="${share.id}",share="share-after",nas="nas-after",pool="pool-before"} 1`]);
    await put(`/pools/${pool.id}`, { name: 'pool-after' });
    expect(healthy(await scrape(), share.id)).toEqual([`dms_share_healthy{share_id="${share.id}",share="share-after",nas="nas-after",pool="pool-after"} 1`]);
    await put(`/pools/${pool.id}`, { nas_share_ids: [] });
    const text = await scrape();
    expect(healthy(text, share.id)).toEqual([`dms_share_healthy{share_id="${share.id}",share="share-after",nas="nas-after",pool=""} 1`]);
    // No series anywhere under the names left behind.
    expect(text).not.toMatch(/share-before|nas-before|pool-before|pool="pool-after"/);
    const added = await testShare(await addShare(t, otherNas, { path: 'b', name: 'share-new' }));
    expect(healthy(await scrape(), added.id)).toEqual([`dms_share_healthy{share_id="${added.id}",share="share-new",nas="nas-after",pool=""} 1`]);
  });

  it('issue 47: a scrape asking for gzip gets one gzip member of the same text', async () => {
    const plain = await scrape();
    const res = await t.call('GET', '/metrics', { auth: metricsKey, headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    const body = Buffer.from(await res.arrayBuffer());
    const text = inflateRawSync(body.subarray(10, body.length - 8)).toString('utf8');
    // The same series (the process's own gauges, such as its memory, move between two scrapes).
    const shareLines = (exposition: string) => exposition.split('\n').filter((line) => line.startsWith('dms_share_'));
    expect(shareLines(text)).toEqual(shareLines(plain));
    expect(body.readUInt32LE(body.length - 4)).toBe(Buffer.byteLength(text));
  });

  it.skipIf(!promtool.ok)('issue 42 item 1: promtool check metrics accepts a scrape', async () => {
    const text = await scrape();
    expect(text).toContain('dms_share_capacity_bytes{');
    const run = spawnSync(promtool.paths['promtool']!, ['check', 'metrics'], { input: text, encoding: 'utf8' });
    // Nothing to say: the text parses and every name follows the naming practice.
    expect(run.stderr + run.stdout).toBe('');
    expect(run.status).toBe(0);
  });
});
