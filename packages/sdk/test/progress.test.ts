import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { sambaCheck, startSambaServer, type SambaServer } from '@dms/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActiveJobStatus, NasShare } from '../src/index.js';
import { useDms } from './support/fixture.js';

/**
 * A scan that lasts: the server walks an SMB share of a Samba the test starts, with the
 * `smbclient` it finds on PATH; here PATH starts with one that runs the real one and hands its
 * output on a line at a time with a pause between. The walk and its counts are the real ones;
 * only their pace is slowed, so that a scan of a modest tree (many small directories, listed a
 * few at a time) spans many of the engine's progress intervals (250 ms) on any machine, and the
 * assertions count answers, not milliseconds. (A local share is no longer slowed this way: every
 * scan keeps analytics, so the local driver walks with worker threads, not GNU find.)
 */
const slowSmbclient = `#!/bin/bash
set -o pipefail
/usr/bin/smbclient "$@" | while IFS= read -r line; do printf '%s\\n' "$line"; sleep 0.04; done
`;

const check = sambaCheck();
const sambaUser = { name: 'dmstest', password: 'sdk-progress-pw' };
const tops = 4;
const subdirectories = 6;
const filesPerDirectory = 3;
const files = tops * subdirectories * filesPerDirectory;

let binDir: string;
let treeDir: string;
let samba: SambaServer;
const path = process.env['PATH'];
// Before the server starts (useDms' own beforeAll), and put back for whatever runs next in this process.
beforeAll(async () => {
  if (!check.ok) return;
  binDir = mkdtempSync(join(tmpdir(), 'dms-sdk-smbclient-'));
  writeFileSync(join(binDir, 'smbclient'), slowSmbclient);
  chmodSync(join(binDir, 'smbclient'), 0o755);
  process.env['PATH'] = `${binDir}${delimiter}${path}`;
  treeDir = mkdtempSync(join(tmpdir(), 'dms-sdk-progress-'));
  for (let top = 0; top < tops; top++) {
    for (let sub = 0; sub < subdirectories; sub++) {
      const dir = join(treeDir, `t${top}`, `s${sub}`);
      mkdirSync(dir, { recursive: true });
      for (let f = 0; f < filesPerDirectory; f++) writeFileSync(join(dir, `f${f}`), 'xy');
    }
  }
  samba = await startSambaServer({ shares: { slow: treeDir }, users: [sambaUser] });
});
afterAll(async () => {
  process.env['PATH'] = path;
  await samba?.stop();
  for (const dir of [binDir, treeDir]) if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

const t = useDms();
let share: NasShare;

beforeAll(async () => {
  if (!check.ok) return;
  const nas = await t.dms.nas.create({ name: 'nas-progress', host: samba.host, type: 'smb_v3' });
  share = await t.dms.nasShares.create(nas.id, {
    name: 'slow',
    path: 'slow',
    options: `port=${samba.port}`,
    username: sambaUser.name,
    password: sambaUser.password,
  });
});

/** The file counts a scan showed while working: what a progress bar would have drawn. */
const workingCounts = (seen: readonly ActiveJobStatus[]) => seen.filter((status) => status.status === 'working').map((status) => status.file_count ?? 0);

// Without Samba this prints why it skips; with CI=true sambaCheck fails instead.
describe.skipIf(!check.ok)('a long scan seen as it advances', () => {
  it('calls wait({ onProgress }) as the scan counts files, not only at each status', async () => {
    const job = await t.dms.nasShares.scan(share.id);
    const seen: ActiveJobStatus[] = [];
    const done = await job.wait({ onProgress: (status) => seen.push(status) });
    expect(done).toMatchObject({ status: 'completed', file_count: files, file_size_sum: 2 * files });
    const counts = workingCounts(seen).filter((count) => count > 0);
    expect(counts.length).toBeGreaterThanOrEqual(2);
    // Each a step further than the one before, all short of the end.
    counts.slice(1).forEach((count, i) => expect(count).toBeGreaterThan(counts[i]!));
    expect(counts.at(-1)).toBeLessThanOrEqual(files); // a walk may count every file before the job is marked done
    expect(seen.at(-1)).toEqual(done);
  });

  it('yields the same snapshots from job.progress(), ending after the finished one', async () => {
    const job = await t.dms.nasShares.scan(share.id);
    const seen: ActiveJobStatus[] = [];
    for await (const status of job.progress()) seen.push(status);
    expect(seen[0]).toMatchObject({ job_id: job.id, status: 'queued' });
    expect(seen.at(-1)).toMatchObject({ status: 'completed', file_count: files });
    expect(seen.filter((status) => status.status === 'completed')).toHaveLength(1);
    const counts = workingCounts(seen).filter((count) => count > 0);
    expect(counts.length).toBeGreaterThanOrEqual(2);
    counts.slice(1).forEach((count, i) => expect(count).toBeGreaterThan(counts[i]!));
    expect(job.status).toEqual(seen.at(-1));
  });

  it('stops following when the loop is left, and rejects with AbortError when its signal aborts', async () => {
    const job = await t.dms.nasShares.scan(share.id);
    // Leaving the loop: the iterator ends with no request left open; the job goes on.
    for await (const status of job.progress()) if (status.status === 'working') break;
    const iterator = job.progress();
    expect((await iterator.next()).done).toBe(false);
    expect(await iterator.return!()).toEqual({ done: true, value: undefined });
    // Returned: no further step asks the server anything.
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
    const controller = new AbortController();
    const seen: ActiveJobStatus[] = [];
    const following = (async () => {
      for await (const status of job.progress({ signal: controller.signal })) {
        seen.push(status);
        if ((status.file_count ?? 0) > 0) controller.abort();
      }
    })();
    await expect(following).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen.at(-1)?.status).toBe('working');
    // The scan was not stopped by either: it completes.
    expect(await job.wait()).toMatchObject({ status: 'completed', file_count: files });
  });

  it('ends with a failed job as its last snapshot, without throwing', async () => {
    const job = await t.dms.nasShares.test('nas-progress', { name: 'missing', path: 'does/not/exist' });
    const seen: ActiveJobStatus[] = [];
    for await (const status of job.progress()) seen.push(status);
    expect(seen.at(-1)).toMatchObject({ job_id: job.id, status: 'failed' });
  });
});
