import { chmodSync, linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScanAnalyticsBuilder, type ScanAnalytics, type ScanComparison, type ShareScan, type ShareScanDetail, type TopGrower } from '@dms/core';
import { createTestApp, type TestApp } from '../../src/testing/test-app.js';
import { addNas, addScans, addShare, expectModelError, readJson, type NasShare } from '../../src/testing/fixtures.js';

/**
 * Scan analytics over REST (issue 43; docs/decisions/155-scan-analytics-one-pass.md,
 * docs/decisions/156-scan-comparison.md) on both adapters: real scans of a local tree this file
 * builds (deep, wide, unicode names, hard links, symlinks, a directory closed to others) answer
 * the analytics the test computes from what it made, and comparing two scans after adding and
 * deleting known files names exactly the directories that hold them.
 */

const api = (path: string) => `/api/v2${path}`;
const day = 86_400_000;

interface MadeFile {
  /** Share-relative. */
  path: string;
  bytes: number;
  modifiedMs: number;
  accessedMs: number;
}

describe('scan analytics through the API', () => {
  let t: TestApp;
  let root: string;
  let share: NasShare;
  let other: NasShare;
  let spare: NasShare;
  /** One name per inode, as a scan counts them. */
  const made = new Map<string, MadeFile>();
  /** Every directory made (share-relative), the root included. */
  const directories = new Set<string>(['/']);
  let firstScan: ShareScanDetail;

  const onDisk = (path: string) => join(root, 'data', path);

  function addDirectory(path: string): void {
    if (directories.has(path)) return;
    const parent = path.slice(0, path.lastIndexOf('/')) || '/';
    addDirectory(parent);
    mkdirSync(onDisk(path));
    directories.add(path);
  }

  /** A file aged `ageDays` (never near a bucket's bound), accessed `accessDays` ago. */
  function addFile(path: string, bytes: number, ageDays: number, accessDays = ageDays / 2 + 0.5): void {
    addDirectory(path.slice(0, path.lastIndexOf('/')) || '/');
    writeFileSync(onDisk(path), Buffer.alloc(bytes, 0x61));
    const modifiedMs = Math.floor((Date.now() - ageDays * day) / 1000) * 1000;
    const accessedMs = Math.floor((Date.now() - accessDays * day) / 1000) * 1000;
    utimesSync(onDisk(path), accessedMs / 1000, modifiedMs / 1000);
    made.set(path, { path, bytes, modifiedMs, accessedMs });
  }

  /** The analytics computed from what the test made, through a builder fed in the simplest order. */
  function expected(): ScanAnalytics {
    const builder = new ScanAnalyticsBuilder(Date.now());
    for (const file of made.values()) {
      const slash = file.path.lastIndexOf('/');
      builder.file(file.path.slice(0, slash) || '/', file.path.slice(slash + 1), file.bytes, file.modifiedMs, file.accessedMs);
    }
    const children = (parent: string) => [...directories].filter((path) => path !== '/' && (path.slice(0, path.lastIndexOf('/')) || '/') === parent).length;
    for (const path of [...directories].sort((a, b) => b.length - a.length)) builder.directory(path, children(path));
    return builder.result();
  }

  async function scan(ref: string | number): Promise<ShareScanDetail> {
    const started = await t.call('PUT', api(`/nas_shares/${ref}/scan`), { auth: t.basic });
    expect(started.status, await started.clone().text()).toBe(202);
    const { job_id: jobId } = await readJson<{ job_id: string }>(started);
    for (;;) {
      const res = await t.call('GET', api(`/jobs/${jobId}?wait=10`), { auth: t.basic });
      if (res.status === 200) {
        expect(await readJson<{ status: string }>(res)).toMatchObject({ status: 'completed' });
        break;
      }
      expect(res.status).toBe(202);
    }
    const list = await readJson<{ scans: ShareScan[] }>(await t.call('GET', api(`/nas_shares/${ref}/scans?limit=1`), { auth: t.basic }));
    const res = await t.call('GET', api(`/nas_shares/${ref}/scans/${list.scans[0]!.id}`), { auth: t.basic });
    expect(res.status, await res.clone().text()).toBe(200);
    return readJson<ShareScanDetail>(res);
  }

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'dms-scan-analytics-'));
    mkdirSync(join(root, 'data'));
    // Deep: 30 levels; wide: 300 files and 40 directories side by side; unicode names.
    const deep = `/deep/${Array.from({ length: 30 }, (_, i) => `l${i}`).join('/')}`;
    addFile(`${deep}/leaf.bin`, 300_000, 10);
    addFile('/deep/l0/l1/mid.log', 1_000, 60);
    for (let i = 0; i < 300; i += 1) addFile(`/wide/f${i}.txt`, 100 + i, 200);
    for (let i = 0; i < 40; i += 1) addFile(`/wide/d${i}/only.csv`, 5_000 + i, 700);
    addFile('/ünïcödé/日本語 ファイル.PDF', 2_000_000, 2_000);
    addFile('/emoji 🎉/naïve.tar.gz', 6_000_000, 400);
    addFile('/.hidden/.bashrc', 10, 20);
    addDirectory('/empty');
    // Hard links: one inode under two names in one directory (so its totals do not depend on
    // which name the walk meets first), counted once.
    addFile('/links/a.dat', 50, 15);
    linkSync(onDisk('/links/a.dat'), onDisk('/links/b.dat'));
    // Symlinks: neither followed nor counted.
    symlinkSync(onDisk('/wide'), onDisk('/links/to-wide'));
    symlinkSync('nowhere', onDisk('/dangling'));
    // A directory closed to others: root (whom tests run as) still reads it, anyone else skips it.
    addFile('/locked/secret.key', 4_096, 100);
    chmodSync(onDisk('/locked'), 0o000);
    if (process.getuid?.() !== 0) made.delete('/locked/secret.key');

    t = await createTestApp({ localRoots: [root] });
    const nas = await addNas(t, { type: 'local', host: 'localhost' });
    share = await addShare(t, nas, { path: 'data' });
    other = await addShare(t, nas, { path: 'data' });
    spare = await addShare(t, nas, { path: 'data' });
    await t.engine.start();
    firstScan = await scan(share.id);
  });

  afterAll(async () => {
    await t?.close();
    chmodSync(join(root, 'data', 'locked'), 0o700);
    rmSync(root, { recursive: true, force: true });
  });

  it('issue 43: a scan of a real tree answers the analytics computed from what the test made', () => {
    expect(firstScan.file_count).toBe(made.size);
    expect(firstScan.analytics).toEqual(expected());
    const analytics = firstScan.analytics!;
    expect(analytics.top_directories.map((entry) => entry.path)).toContain('/ünïcödé');
    expect(analytics.top_directories.find((entry) => entry.path === '/links')).toEqual({ path: '/links', bytes: 50, files: 1 });
    expect(analytics.top_directories.find((entry) => entry.path === '/deep/l0/l1')).toMatchObject({ files: 2 });
    expect(analytics.extensions.find((row) => row.extension === 'pdf')).toEqual({ extension: 'pdf', files: 1, bytes: 2_000_000 });
    expect(analytics.largest_files[0]).toMatchObject({ path: '/emoji 🎉/naïve.tar.gz', bytes: 6_000_000 });
    expect(analytics.access_histogram).not.toBeNull();
  });

  it('issue 43: compare after adding and deleting known files names exactly the directories that hold them', async () => {
    const changes = [
      { path: '/deep/l0/l1/l2/l3/added.bin', bytes: 70_000 },
      { path: '/new/sub/fresh.txt', bytes: 9_000 },
      { path: '/ünïcödé/日本語 ファイル.PDF', bytes: -2_000_000 },
    ];
    addFile(changes[0]!.path, 70_000, 1);
    addFile(changes[1]!.path, 9_000, 1);
    unlinkSync(onDisk(changes[2]!.path));
    made.delete(changes[2]!.path);
    const second = await scan(share.id);
    expect(second.analytics).toEqual(expected());

    // What the test changed, summed into each directory 1 to 3 levels deep that holds it.
    const want = new Map<string, TopGrower>();
    for (const change of changes) {
      const parts = change.path.split('/').slice(1, -1);
      for (let depth = 1; depth <= Math.min(3, parts.length); depth += 1) {
        const path = `/${parts.slice(0, depth).join('/')}`;
        const entry = want.get(path) ?? { path, bytes_delta: 0, files_delta: 0 };
        entry.bytes_delta += change.bytes;
        entry.files_delta += change.bytes > 0 ? 1 : -1;
        want.set(path, entry);
      }
    }
    const res = await t.call('GET', api(`/nas_shares/${share.id}/scans/compare?from=${firstScan.id}&to=${second.id}`), { auth: t.basic });
    expect(res.status, await res.clone().text()).toBe(200);
    const comparison = await readJson<ScanComparison>(res);
    expect(comparison.top_growers).toEqual([...want.values()].sort((a, b) => b.bytes_delta - a.bytes_delta));
    expect(comparison.from).toMatchObject({ id: firstScan.id, file_count: firstScan.file_count });
    const pdfs = comparison.size_histogram.find((row) => row.bucket === '< 100 MiB')!;
    expect(pdfs.to_files - pdfs.from_files).toBe(-1);
    const young = comparison.age_histogram.find((row) => row.bucket === '< 30 d')!;
    expect(young.to_files - young.from_files).toBe(2);
  });

  it('issue 43: a scan of another share, an unknown one, or one without analytics is refused', async () => {
    await expectModelError(await t.call('GET', api(`/nas_shares/${other.id}/scans/${firstScan.id}`), { auth: t.basic }), 404, 'scan_id');
    await expectModelError(await t.call('GET', api(`/nas_shares/${share.id}/scans/abc`), { auth: t.basic }), 404, 'scan_id');
    await expectModelError(await t.call('GET', api(`/nas_shares/${share.id}/scans/compare?from=${firstScan.id}`), { auth: t.basic }), 400, 'to');
    await expectModelError(
      await t.call('GET', api(`/nas_shares/${share.id}/scans/compare?from=${firstScan.id}&to=${firstScan.id}&x=1`), { auth: t.basic }),
      400,
      'x',
    );
    const before = { at: '2020-01-01T00:00:00.000Z', file_count: 1, file_size_sum: 1, duration_ms: 1, capacity_bytes: null, free_bytes: null };
    await t.storage.shares.recordScan(other.id, before);
    const { items } = await t.storage.shares.listScans(other.id, { limit: 1, offset: 0, sort: [], filters: [] });
    expect(items).toHaveLength(1);
    const old = await t.call('GET', api(`/nas_shares/${other.id}/scans/${items[0]!.id}`), { auth: t.basic });
    expect(await readJson<ShareScanDetail>(old)).toMatchObject({ id: items[0]!.id, analytics: null });
    const { to } = await addScans(t, other);
    await expectModelError(await t.call('GET', api(`/nas_shares/${other.id}/scans/compare?from=${items[0]!.id}&to=${to}`), { auth: t.basic }), 409, 'from');
  });

  it('issue 43: a key with nas_shares/show reads analytics; one without is refused', async () => {
    const allowed = await t.bearer('nas_shares/show');
    expect((await t.call('GET', api(`/nas_shares/${share.id}/scans/${firstScan.id}`), { auth: allowed })).status).toBe(200);
    const refused = await t.bearer('pools/index');
    expect((await t.call('GET', api(`/nas_shares/${share.id}/scans/${firstScan.id}`), { auth: refused })).status).toBe(403);
  });

  it('issue 43: analytics go with their scan when retention purges it', async () => {
    const { from, to } = await addScans(t, spare);
    expect(await t.storage.shares.purgeScans('2025-01-14T12:00:00.000Z', 100)).toBeGreaterThan(0);
    expect(await t.storage.shares.getScan(spare.id, from)).toBeUndefined();
    expect((await t.storage.shares.getScan(spare.id, to))?.analytics).not.toBeNull();
  });
});
