import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScanAnalyticsBuilder } from '../../scans/scan-analytics-builder.js';
import { expectWalkedTree } from '../../testing/expect-walked-tree.js';
import { recordingAnalyticsSink } from '../../testing/recording-analytics-sink.js';
import { recordingRun, shareLocation } from '../../testing/recording-run.js';
import { byPath, makeScanTree, replayTree, teeSink, type ScanTree } from '../../testing/remote-scan-tree.js';
import { sambaCheck, startSambaServer, type SambaServer } from '../../testing/samba-server.js';
import { createSmbDriver } from './smb-driver.js';
import { isJobFinished } from '../../domain/job.js';
import { adminWithEngine, openTestDms } from '../../testing/test-dms.js';

const check = sambaCheck();
const user = { name: 'dmstest', password: 'scan-analytics-pw' };

// Without the real peer this prints why it skips; with CI=true requireTools fails instead.
describe.skipIf(!check.ok)('SMB scans feed the analytics sink (Samba)', () => {
  let tree: ScanTree;
  let nest: string;
  let samba: SambaServer;

  beforeAll(async () => {
    tree = makeScanTree();
    // Deeper than a scan follows: what a symbolic link loop on the server looks like.
    nest = mkdtempSync(join(tmpdir(), 'dms-smb-nest-'));
    chmodSync(nest, 0o755);
    mkdirSync(join(nest, ...Array.from({ length: 258 }, () => 'n')), { recursive: true });
    // Served as nobody, so the locked directory is refused as it would be to a user.
    samba = await startSambaServer({ shares: { data: tree.root, nest }, users: [user], forceUser: 'nobody' });
  });
  afterAll(async () => {
    await samba?.stop();
    if (nest !== undefined) rmSync(nest, { recursive: true, force: true });
    if (tree !== undefined) {
      chmodSync(join(tree.root, tree.locked), 0o755);
      rmSync(tree.root, { recursive: true, force: true });
    }
  });

  /** A share location of `path` on the test's Samba, as the test's user. */
  const sambaPath = (path: string) =>
    shareLocation('smb_v3', { host: samba.host, path, username: user.name, password: user.password, options: { port: String(samba.port) } });

  /** smbd's child processes now (read at once, so the test acts between two listings). */
  const smbdChildren = () => readFileSync(`/proc/${samba.pid}/task/${samba.pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);

  /**
   * What Samba shows of the tree through smbclient: every name of a hard-linked file as a file
   * (no file id or link count in a listing), a symbolic link inside the share as what it points
   * to (Samba follows it), a dangling one not at all; times to the second, no access time.
   */
  const shown = () => {
    const files = tree.files.flatMap((file) =>
      [file.path, ...file.links].map((path) => ({ path, bytes: file.bytes, modifiedMs: file.modifiedMs, accessedMs: null })),
    );
    const top = files.find((file) => file.path === '/top.txt');
    return [...files, { ...(top as (typeof files)[number]), path: '/link-to-top' }];
  };

  for (const sessions of [4, 1]) {
    it(`issue 43: a walk by ${sessions} smbclient session(s) reports every file with its size and time, each directory after its files`, async () => {
      const sink = recordingAnalyticsSink();
      const walked = new ScanAnalyticsBuilder(tree.now);
      const run = Object.assign(recordingRun(), { analytics: teeSink(sink, walked) });
      const location = sambaPath('data');
      const result = await createSmbDriver({ walk: { sessions, progressIntervalMs: 0 } }).scan(location, run);

      const expected = shown();
      expect(byPath(sink.files.map(({ order: _, ...file }) => file))).toEqual(byPath(expected));
      expect(byPath(sink.directories.map(({ order: _, ...dir }) => dir))).toEqual(byPath(tree.directories));
      const analytics = expectWalkedTree({ result, run, sink, walked }, tree, expected);
      expect(analytics.top_directories[0]).toEqual({ path: '/big', bytes: 5 * 1024 ** 3, files: 1 });
      expect(analytics.access_histogram).toBeNull();
    });
  }

  it('issue 43: a walk whose smbd process dies between two listings lists the rest in a new session, every file once', async () => {
    const helpers = smbdChildren();
    const sink = recordingAnalyticsSink();
    const walked = new ScanAnalyticsBuilder(tree.now);
    let killed: number[] | undefined;
    const tee = teeSink(sink, walked);
    const analytics = {
      ...tee,
      // Once the root is listed, the process serving the session is killed, as a panic ends it.
      directory(path: string, subdirectories: number) {
        tee.directory(path, subdirectories);
        if (killed !== undefined) return;
        killed = smbdChildren().filter((pid) => !helpers.includes(pid));
        for (const pid of killed) process.kill(pid, 'SIGKILL');
      },
    };
    const run = Object.assign(recordingRun(), { analytics });
    const location = sambaPath('data');
    const result = await createSmbDriver({ walk: { sessions: 1, progressIntervalMs: 0 } }).scan(location, run);

    expect(killed).toHaveLength(1);
    const expected = shown();
    expect(byPath(sink.files.map(({ order: _, ...file }) => file))).toEqual(byPath(expected));
    expectWalkedTree({ result, run, sink, walked }, tree, expected);
  });

  it('issue 43: a scan of the locked directory itself fails in plain words', async () => {
    const location = sambaPath('data/locked');
    await expect(createSmbDriver().scan(location, recordingRun())).rejects.toThrow("listing path 'locked' denied for user 'dmstest'");
  });

  it('issue 43: a walk stops at a nesting only a symbolic link loop produces', async () => {
    const location = sambaPath('nest');
    await expect(createSmbDriver().scan(location, recordingRun())).rejects.toThrow(
      /^directories nest deeper than 256 levels under '\/n(\/n)*' \(a symbolic link loop on the server\?\)$/,
    );
  });

  it('issue 43: a scan job stores the analytics the SMB walk fed, equal to the tree the test made', async () => {
    const t = await openTestDms({ adapter: 'sqlite' });
    try {
      const { core } = t.dms;
      const principal = await adminWithEngine(t);
      const nas = await core.nas.create(principal, { name: 'samba', type: 'smb_v3', host: samba.host });
      const share = await core.shares.create(principal, String(nas.id), {
        name: 'data',
        path: 'data',
        options: `port=${samba.port}`,
        username: user.name,
        password: user.password,
      });
      const started = await core.jobs.scan(principal, { kind: 'all' }, String(share.id));
      let job = await core.jobs.show(principal, started.job_id);
      while (!isJobFinished(job)) job = await core.jobs.show(principal, started.job_id, '30');
      expect(job).toMatchObject({ status: 'completed', file_count: shown().length });
      const { scans } = await core.shares.scans(principal, { kind: 'all' }, String(share.id), {});
      const stored = await core.shares.scan(principal, { kind: 'all' }, String(share.id), String(scans[0]?.id));
      const made = new ScanAnalyticsBuilder(tree.now);
      replayTree(made, shown(), tree.directories);
      const expected = made.result();
      // Ages are taken from the job's clock, seconds after the tree's: no file lies that close to a bucket's edge.
      expect(stored.analytics).toEqual(expected);
    } finally {
      await t.dms.engine.stop();
      await t.close();
    }
  });
});
