import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestDms, type TestDms } from '../testing/test-dms.js';
import { systemPrincipal } from '../scopes/principal.js';
import { isJobFinished } from '../domain/job-status.js';

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
    expect(capacity.totals).toEqual({
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
