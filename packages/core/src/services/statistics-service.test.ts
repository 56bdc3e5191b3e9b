import { mkdirSync, mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestDms, type TestDms } from '../testing/test-dms.js';
import { systemPrincipal } from '../scopes/principal.js';
import { isJobFinished } from '../domain/job-status.js';
import { mountSmallDisk, type SmallDisk } from '../testing/small-disk.js';
import type { TestAdapter } from '../testing/test-dms.js';
import { formatBytes } from '../format-bytes.js';

describe('scan history and capacity (issue 23)', () => {
  let test: TestDms;
  let root: string;
  beforeEach(async () => {
    root = mkdtempSync(join(tmpdir(), 'dms-capacity-'));
    test = await openTestDms({ adapter: 'sqlite', localRoots: [root] });
    await test.dms.engine.start();
  });
  afterEach(async () => {
    await test.close();
    rmSync(root, { recursive: true, force: true });
  });

  const scanned = async (shareId: number) => {
    const { core } = test.dms;
    const job = await core.jobs.scan(systemPrincipal, { kind: 'all' }, String(shareId));
    let state = await core.jobs.show(systemPrincipal, job.job_id, '30');
    while (!isJobFinished(state)) state = await core.jobs.show(systemPrincipal, job.job_id, '30');
    expect(state.status).toBe('completed');
  };

  it('keeps every completed scan, newest first, and reports the growth between them per NAS and pool', async () => {
    const { core } = test.dms;
    mkdirSync(join(root, 'projects'));
    for (let i = 0; i < 3; i++) writeFileSync(join(root, 'projects', `f${i}`), 'x'.repeat(100));
    const nas = await core.nas.create(systemPrincipal, { name: 'filer', host: 'localhost', type: 'local' });
    const share = await core.shares.create(systemPrincipal, String(nas.id), { name: 'projects', path: join(root, 'projects') });
    const idle = await core.shares.create(systemPrincipal, String(nas.id), { name: 'idle', path: join(root, 'projects') });
    const pool = await core.pools.create(systemPrincipal, { name: 'primary' });
    await core.pools.update(systemPrincipal, String(pool.id), { nas_share_ids: [share.id] });
    expect(await core.shares.show(systemPrincipal, { kind: 'all' }, String(share.id))).toMatchObject({ last_scanned_at: null, file_count: 0 });

    await scanned(share.id);
    for (let i = 3; i < 5; i++) writeFileSync(join(root, 'projects', `f${i}`), 'x'.repeat(1000));
    await scanned(share.id);

    const { count, scans } = await core.shares.scans(systemPrincipal, { kind: 'all' }, String(share.id), {});
    expect(count).toBe(2);
    expect(scans.map((scan) => [scan.file_count, scan.file_size_sum])).toEqual([
      [5, 2300],
      [3, 300],
    ]);
    expect(scans[0]!.at >= scans[1]!.at).toBe(true);
    expect((await core.shares.show(systemPrincipal, { kind: 'all' }, String(share.id))).last_scanned_at).toBe(scans[0]!.at);

    const capacity = await core.statistics.capacity(systemPrincipal, { days: ['7'] });
    expect(capacity.period_days).toBe(7);
    expect(capacity.totals).toMatchObject({
      file_count: 5,
      file_size_sum: 2300,
      shares_scanned: 1,
      shares_not_scanned: 1,
      growth: { file_count: 2, file_size_sum: 2000 },
    });
    expect(capacity.nas).toEqual([
      expect.objectContaining({ nas_id: nas.id, name: 'filer', file_count: 5, shares_not_scanned: 1, growth: { file_count: 2, file_size_sum: 2000 } }),
    ]);
    expect(capacity.pools).toEqual([expect.objectContaining({ pool_id: pool.id, file_count: 5, shares_scanned: 1, shares_not_scanned: 0 })]);
    expect(idle.id).toBeGreaterThan(share.id);
    await expect(core.statistics.capacity(systemPrincipal, { days: ['0'] })).rejects.toMatchObject({ code: 'bad_request' });
    await expect(core.statistics.capacity(systemPrincipal, { period: ['7'] })).rejects.toMatchObject({ code: 'bad_request' });
  });
});

const MB = 1024 * 1024;
const hourMs = 3600_000;

describe.each<TestAdapter>(['sqlite', 'postgres'])('issue 42: capacity of shares, their forecast and their sums (%s)', (adapter) => {
  let test: TestDms;
  let disks: (SmallDisk | string)[] = [];
  let now = Date.parse('2026-03-01T00:00:00.000Z');
  beforeEach(async () => {
    disks = [mountSmallDisk('4m'), mountSmallDisk('4m')];
    if (disks.some((disk) => typeof disk === 'string')) return;
    const dirs = disks.map((disk) => (disk as SmallDisk).dir);
    test = await openTestDms({ adapter, localRoots: dirs, core: { clock: () => new Date(now) } });
    await test.dms.engine.start();
  });
  afterEach(async () => {
    await test?.close();
    for (const disk of disks) if (typeof disk !== 'string') disk.remove();
  });

  const tested = async (shareId: number) => {
    const { core } = test.dms;
    const job = await core.jobs.testSaved(systemPrincipal, { kind: 'all' }, String(shareId));
    let state = await core.jobs.show(systemPrincipal, job.job_id, '30');
    while (!isJobFinished(state)) state = await core.jobs.show(systemPrincipal, job.job_id, '30');
    expect(state.status).toBe('completed');
  };

  it('issue 42 items 2 and 4: tests read the size, the forecast follows the growth, and shares of one file system are counted once', async (context) => {
    if (disks.some((disk) => typeof disk === 'string')) return context.skip();
    const [one, two] = disks.map((disk) => (disk as SmallDisk).dir) as [string, string];
    const { core } = test.dms;
    test.dms.alertWatch.start();
    for (const dir of [join(one, 'a'), join(one, 'b'), join(two, 'c')]) mkdirSync(dir);
    const nas = await core.nas.create(systemPrincipal, { name: 'filer', host: 'localhost', type: 'local' });
    const share = async (name: string, path: string) => (await core.shares.create(systemPrincipal, String(nas.id), { name, path })).id;
    const [a, b, c] = [await share('a', join(one, 'a')), await share('b', join(one, 'b')), await share('c', join(two, 'c'))];
    const pool = await core.pools.create(systemPrincipal, { name: 'primary' });
    await core.pools.update(systemPrincipal, String(pool.id), { nas_share_ids: [a, c] });
    const show = (id: number) => core.shares.show(systemPrincipal, { kind: 'all' }, String(id));

    // Half a MiB a day for three readings 12 hours apart: 3 samples spanning 24 hours.
    for (let day = 0; day < 3; day += 1) {
      writeFileSync(join(one, 'a', `day${day}`), Buffer.alloc(MB / 2, 1));
      await tested(a);
      if (day < 2) now += 12 * hourMs;
    }
    const shown = await show(a);
    const statfs = statfsSync(one);
    expect(shown).toMatchObject({
      capacity_bytes: statfs.bsize * statfs.blocks,
      free_bytes: statfs.bsize * statfs.bavail,
      capacity_checked_at: new Date(now).toISOString(),
      capacity_forecast: { samples: 3, days: 1, growth_bytes_per_day: MB },
    });
    expect(shown.used_percent).toBeCloseTo(((statfs.blocks - statfs.bavail) / statfs.blocks) * 100, 1);
    const trueDays = (statfs.bsize * statfs.bavail) / MB;
    expect(Math.abs(shown.days_until_full! - trueDays)).toBeLessThanOrEqual(trueDays * 0.1);
    // Full within 30 days (item 5): share_full_soon is raised for it.
    await test.dms.alertWatch.settled();
    const soon = (await core.alerts.list(systemPrincipal, { source: ['share_full_soon'] })).alerts;
    expect(soon).toEqual([expect.objectContaining({ level: 3, resource: expect.objectContaining({ id: String(a) }), cleared_at: null })]);
    expect(soon[0]!.message).toBe(
      `share a is forecast to be full in ${shown.days_until_full} days (${formatBytes(shown.free_bytes!)} free of ${formatBytes(shown.capacity_bytes!)})`,
    );
    // Too little history: one reading, no forecast.
    await tested(c);
    expect(await show(c)).toMatchObject({ capacity_forecast: null, days_until_full: null });

    // b lies on a's file system: read with nothing written in between, the same size and free space.
    await tested(b);
    const capacity = await core.statistics.capacity(systemPrincipal, {});
    const size = statfs.bsize * statfs.blocks;
    const free = (dir: string) => statfsSync(dir).bsize * statfsSync(dir).bavail;
    expect(capacity.nas).toEqual([
      expect.objectContaining({
        nas_id: nas.id,
        capacity_bytes: 2 * size,
        free_bytes: free(one) + free(two),
        shares_with_capacity: 3,
        shares_merged: 1,
        growth_bytes_per_day: MB,
        days_until_full: Math.round(((free(one) + free(two)) / MB) * 10) / 10,
      }),
    ]);
    expect(capacity.pools).toEqual([expect.objectContaining({ pool_id: pool.id, capacity_bytes: 2 * size, shares_with_capacity: 2, shares_merged: 0 })]);
    expect(capacity.totals).toMatchObject({ capacity_bytes: 2 * size, shares_merged: 1 });
    expect(capacity.totals.used_percent).toBe(Math.round((1 - (free(one) + free(two)) / (2 * size)) * 1000) / 10);
  });
});
