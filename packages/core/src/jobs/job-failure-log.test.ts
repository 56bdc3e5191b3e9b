import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDms, type Dms } from '../runtime/open-dms.js';
import type { DmsLog } from '../runtime/log.js';
import { systemPrincipal } from '../scopes/principal.js';
import { isJobFinished } from '../domain/job.js';

interface LogLine {
  level: 'info' | 'warn' | 'error';
  fields: object;
  message: string;
}

describe('failed jobs in the log (openDms wiring)', () => {
  let base: string;
  let dms: Dms;
  const lines: LogLine[] = [];
  const log: DmsLog = {
    info: (fields, message) => void lines.push({ level: 'info', fields, message }),
    warn: (fields, message) => void lines.push({ level: 'warn', fields, message }),
    error: (fields, message) => void lines.push({ level: 'error', fields, message }),
  };

  beforeAll(async () => {
    base = mkdtempSync(join(tmpdir(), 'dms-job-log-'));
    mkdirSync(join(base, 'shares', 'projects'), { recursive: true });
    dms = await openDms({
      dataDir: join(base, 'data'),
      role: 'command',
      createDatabase: true,
      localRoots: [join(base, 'shares')],
      trapSender: null,
      jobPollMs: 20,
      log,
    });
    await dms.engine.start();
  });
  afterAll(async () => {
    await dms.engine.stop();
    await dms.close();
    rmSync(base, { recursive: true, force: true });
  });

  const finish = async (nasRef: string, body: unknown) => {
    const started = await dms.core.jobs.testUnsaved(systemPrincipal, nasRef, body);
    for (;;) {
      const job = await dms.core.jobs.status(systemPrincipal, { jobId: started.job_id, nasRef }, '5');
      if (isJobFinished(job)) return job;
    }
  };

  it('logs a failed test at warn with the job id and the message the requester reads', async () => {
    const nas = await dms.core.nas.create(systemPrincipal, { name: 'here', host: 'localhost', type: 'local' });
    const job = await finish(String(nas.id), { name: 'probe', path: 'projects/missing' });
    const missing = `path 'projects/missing' not found on share (host path: ${join(base, 'shares', 'projects', 'missing')})`;
    expect(job).toMatchObject({ status: 'failed', message: missing });
    expect(lines.filter((line) => line.level === 'warn')).toEqual([
      {
        level: 'warn',
        fields: { job_id: job.job_id, kind: 'share_test', nas_id: nas.id, share_id: null },
        message: `share test of 'probe' failed: ${missing}`,
      },
    ]);
  });

  it('logs nothing for a completed job, whose message says what succeeded', async () => {
    lines.splice(0);
    const job = await finish('here', { name: 'probe', path: 'projects' });
    expect(job).toMatchObject({ status: 'completed', message: `opened 'projects', 0 entries listed (host path: ${join(base, 'shares', 'projects')})` });
    expect(lines.filter((line) => line.level === 'warn')).toEqual([]);
  });
});
