import { linkSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isJobFinished, type Job } from '../domain/job.js';
import type { Principal } from '../scopes/principal.js';
import { passwordCredential } from '../security/credential.js';
import { postgresOrSkip } from '../testing/postgres-test-database.js';
import { sambaCheck, startSambaServer, type SambaServer } from '../testing/samba-server.js';
import { openTestDms, type TestAdapter, type TestDms } from '../testing/test-dms.js';

/**
 * Issue 22, done-when: "a scan of 200,000 files reports ≥ 10 progress answers through wait=".
 * A client follows the scan as GET /jobs/{id}?wait=30 does, asking again after each answer;
 * at most one answer per 250 ms, so ≥ 10 answers need a scan of ≥ 2.5 s. Measured on a 2-core
 * machine: the local driver walks 200,000 files in 0.3–2.3 s, and SMB lists a flat tree of
 * 200 × 1,000 in 1.8–4.7 s (7 answers in one run); with 10 files per directory SMB takes from 4 s
 * to over 50 s under load (16–206 answers). Hence SMB against a real Samba, 10 files per directory.
 */

const check = sambaCheck();
// Locally a missing server skips with the reason printed; on CI it fails.
const pgUnreachable = await postgresOrSkip('the PostgreSQL half of the scan progress suite');

const topDirs = 200;
const subDirs = 100;
const filesPerDir = 10;
const fileCount = topDirs * subDirs * filesPerDir;
const fileBytes = 100;
const sambaUser = { name: 'dmstest', password: 'scan-progress-pw' };
const admin = { username: 'admin', password: 'admin-password-1' };
/**
 * The bound: at most one answer per 250 ms per job. It is ProgressSaver's, proved on an
 * injected clock in progress-saver.test.ts; here it is only printed (how far answers came closer
 * than that), as a test asserts no duration.
 */
const answerIntervalMs = 250;
/** How far answers fall short of `answerIntervalMs` apart, at worst over any run of them: none drift, none burst. */
function worstShortfall(times: readonly number[]): number {
  let worst = 0;
  for (let j = 1; j < times.length; j += 1) {
    for (let i = 0; i < j; i += 1) worst = Math.max(worst, (j - i) * answerIntervalMs - (times[j]! - times[i]!));
  }
  return worst;
}

/**
 * 200 × 100 directories of 10 files each. Every file under a top directory is a hard link to
 * one file of `fileBytes` (1,000 links, well under ext4's 65,000): the tree is built in about
 * two seconds, not a minute of creating files, and a scan counts each name, with its size, as
 * a file of its own.
 */
function buildTree(root: string): void {
  for (let top = 0; top < topDirs; top += 1) {
    const seed = join(root, `t${top}`, 'seed');
    mkdirSync(join(root, `t${top}`));
    writeFileSync(seed, Buffer.alloc(fileBytes, 0x61));
    for (let sub = 0; sub < subDirs; sub += 1) {
      const dir = join(root, `t${top}`, `s${sub}`);
      mkdirSync(dir);
      for (let file = 0; file < filesPerDir; file += 1) linkSync(seed, join(dir, `f${file}`));
    }
    rmSync(seed);
  }
}

/** How long the scan is followed at most (the test's timeout is a little longer). */
const followForMs = 150_000;

interface Answer {
  job: Job;
  /** When the long-poll answered (ms, monotonic). */
  at: number;
}

// Without the real peer this prints why it skips; with CI=true sambaCheck fails instead.
describe.skipIf(!check.ok)('a 200,000-file scan followed through wait=', () => {
  let base: string;
  let samba: SambaServer;

  beforeAll(async () => {
    base = mkdtempSync(join(tmpdir(), 'dms-scan-progress-'));
    mkdirSync(join(base, 'tree'));
    buildTree(join(base, 'tree'));
    samba = await startSambaServer({ shares: { data: join(base, 'tree') }, users: [sambaUser] });
  }, 180_000);

  afterAll(async () => {
    await samba?.stop();
    rmSync(base, { recursive: true, force: true });
  }, 60_000);

  const adapters: TestAdapter[] = ['sqlite', 'postgres'];
  for (const adapter of adapters) {
    describe.skipIf(adapter === 'postgres' && pgUnreachable !== undefined)(adapter, () => {
      let t: TestDms;
      let principal: Principal;

      beforeAll(async () => {
        t = await openTestDms({ adapter });
        await t.dms.core.users.add({ ...admin, admin: true });
        principal = await t.dms.core.auth.authenticate(passwordCredential(admin.username, admin.password));
        await t.dms.engine.start();
      });

      afterAll(async () => {
        await t?.dms.engine.stop();
        await t?.close();
      });

      it('answers at least 10 times while it counts, each further on', { timeout: followForMs + 30_000 }, async () => {
        const { core } = t.dms;
        const nas = await core.nas.create(principal, { name: 'filer', type: 'smb_v3', host: samba.host });
        const share = await core.shares.create(principal, String(nas.id), {
          name: 'data',
          path: 'data',
          options: `port=${samba.port}`,
          username: sambaUser.name,
          password: sambaUser.password,
        });
        const started = await core.jobs.scan(principal, { kind: 'all' }, String(share.id));

        const answers: Answer[] = [];
        // A long-poll that stopped waiting would spin here past the test's timeout: bounded.
        const giveUpAt = performance.now() + followForMs;
        let job = await core.jobs.show(principal, started.job_id);
        while (!isJobFinished(job) && performance.now() < giveUpAt) {
          job = await core.jobs.show(principal, started.job_id, '30');
          answers.push({ job, at: performance.now() });
        }

        expect(job).toMatchObject({ status: 'completed', file_count: fileCount, file_size_sum: fileCount * fileBytes, progress: fileCount });
        const working = answers.filter((answer) => answer.job.status === 'working');
        const counting = working.filter((answer) => answer.job.file_count !== undefined);
        const counts = counting.map((answer) => answer.job.file_count!);
        const times = working.map((answer) => answer.at);
        const gaps = times.slice(1).map((at, i) => Math.round(at - times[i]!));
        console.info(
          `[scan progress, ${adapter}] ${counting.length} answers counting, file_count ${counts.join(' ')}; ms between answers ${gaps.join(' ')}; worst shortfall ${Math.round(worstShortfall(times))} ms`,
        );

        expect(counting.length).toBeGreaterThanOrEqual(10);
        // Further on: more entries reached. An answer may carry the files of the one before when
        // the walk listed only directories in between (a top directory holds no files), never fewer.
        const reached = counting.map((answer) => answer.job.file_count! + answer.job.directories!);
        for (const [i, answer] of counting.entries()) {
          const { file_count, file_size_sum, progress } = answer.job;
          expect(progress).toBe(file_count);
          expect(file_size_sum).toBe(file_count! * fileBytes);
          if (i > 0) {
            expect(file_count).toBeGreaterThanOrEqual(counts[i - 1]!);
            expect(reached[i]).toBeGreaterThan(reached[i - 1]!);
          }
        }
      });
    });
  }
});
