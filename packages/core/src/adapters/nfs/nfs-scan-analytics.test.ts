import { chmodSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScanAnalyticsBuilder } from '../../scans/scan-analytics-builder.js';
import { expectWalkedTree } from '../../testing/expect-walked-tree.js';
import { ganeshaCheck, startGaneshaServer, type GaneshaServer } from '../../testing/ganesha-server.js';
import { recordingAnalyticsSink } from '../../testing/recording-analytics-sink.js';
import { recordingRun, shareLocation } from '../../testing/recording-run.js';
import { byPath, makeScanTree, replayTree, teeSink, type ScanTree } from '../../testing/remote-scan-tree.js';
import { createNfsDriver } from './nfs-driver.js';
import { isJobFinished } from '../../domain/job.js';
import { adminWithEngine, openTestDms } from '../../testing/test-dms.js';

const check = ganeshaCheck({ v3: true });

// Without the real peer this prints why it skips; with CI=true requireTools fails instead.
describe.skipIf(!check.ok)('NFS scans feed the analytics sink (NFS-Ganesha, v3 and v4)', () => {
  let tree: ScanTree;
  let ganesha: GaneshaServer;

  beforeAll(async () => {
    tree = makeScanTree({ directoryLink: true });
    // Root squashed to nobody, so the locked directory is refused as it would be to a user.
    ganesha = await startGaneshaServer({ exportPath: tree.root, versions: [3, 4], squashRoot: true });
  });
  afterAll(async () => {
    await ganesha?.stop();
    if (tree !== undefined) {
      chmodSync(join(tree.root, tree.locked), 0o755);
      rmSync(tree.root, { recursive: true, force: true });
    }
  });

  for (const type of ['nfs_v3', 'nfs_v4'] as const) {
    it(`issue 43: a ${type} walk over pages in parallel reports each file once with its size and times, each directory after its files`, async () => {
      const sink = recordingAnalyticsSink();
      const walked = new ScanAnalyticsBuilder(tree.now);
      const run = recordingRun();
      const location = shareLocation(type, {
        host: ganesha.host,
        path: type === 'nfs_v3' ? tree.root : ganesha.pseudo,
        options: { port: String(ganesha.port), mountport: String(ganesha.mountPort) },
      });
      // Small pages: /wide takes many, while other directories are listed beside it.
      const result = await createNfsDriver({ pageBytes: 2048, progressIntervalMs: 0 }).scan(location, Object.assign(run, { analytics: teeSink(sink, walked) }));

      // A file with several links is reported once, under whichever of its names came first.
      const reported = new Map(sink.files.map((file) => [file.path, file]));
      const expected = tree.files.map((file) => {
        const names = [file.path, ...file.links].filter((name) => reported.has(name));
        expect(names, `names of ${file.path} reported`).toHaveLength(1);
        return { ...file, path: names[0] as string };
      });
      expect(byPath(sink.files.map(({ order: _, ...file }) => file))).toEqual(byPath(expected.map(({ links: _, ...file }) => file)));
      expect(byPath(sink.directories.map(({ order: _, ...dir }) => dir))).toEqual(byPath(tree.directories));
      // Totals agree with what was reported: links counted once there too.
      const analytics = expectWalkedTree({ result, run, sink, walked }, tree, expected);
      expect(analytics.top_directories.slice(0, 2)).toEqual([
        { path: '/big', bytes: 5 * 1024 ** 3, files: 1 },
        { path: '/wide', bytes: expect.any(Number), files: 300 },
      ]);
      expect(analytics.access_histogram).not.toBeNull();
    });
  }

  it('issue 43: a scan job stores the analytics the NFS walk fed, equal to the tree the test made', async () => {
    const t = await openTestDms({ adapter: 'sqlite' });
    try {
      const { core } = t.dms;
      const principal = await adminWithEngine(t);
      const nas = await core.nas.create(principal, { name: 'ganesha', type: 'nfs_v4', host: ganesha.host });
      const share = await core.shares.create(principal, String(nas.id), { name: 'export', path: ganesha.pseudo, options: `port=${ganesha.port}` });
      const started = await core.jobs.scan(principal, { kind: 'all' }, String(share.id));
      let job = await core.jobs.show(principal, started.job_id);
      while (!isJobFinished(job)) job = await core.jobs.show(principal, started.job_id, '30');
      expect(job).toMatchObject({ status: 'completed', file_count: tree.files.length });
      const { scans } = await core.shares.scans(principal, { kind: 'all' }, String(share.id), {});
      const { analytics } = await core.shares.scan(principal, { kind: 'all' }, String(share.id), String(scans[0]?.id));
      const made = new ScanAnalyticsBuilder(tree.now);
      replayTree(made, tree.files, tree.directories);
      const expected = made.result();
      // Which name of a hard-linked file the walk met first decides only where /links and
      // /other stand and that file's path; everything else is the tree's, exactly. Ages are
      // taken from the job's clock, seconds after the tree's: no file lies that close to an edge.
      const settled = (rows: { path: string }[]) => rows.filter((row) => !/^\/(links|other)$/.test(row.path));
      expect(settled(analytics?.top_directories ?? [])).toEqual(settled(expected.top_directories));
      expect(analytics?.largest_files.map((file) => file.bytes)).toEqual(expected.largest_files.map((file) => file.bytes));
      expect({ ...analytics, top_directories: [], largest_files: [] }).toEqual({ ...expected, top_directories: [], largest_files: [] });
    } finally {
      await t.dms.engine.stop();
      await t.close();
    }
  });
});
