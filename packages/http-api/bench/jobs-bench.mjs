// The job engine: a share test through the API, and raw engine throughput in-process.
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { percentile, request, sleep } from './lib.mjs';

/** PUT …/-/test then GET …/-/test?job_id=&wait=5 until 200; `count` times, sequentially. */
export async function testJobLatency({ base, auth, nasId, path, count, warmup = 10 }) {
  const url = `${base}/nas/${nasId}/nas_shares/-/test`;
  const headers = { authorization: auth };
  const times = [];
  const failures = [];
  let polls = 0;
  for (let i = 0; i < warmup + count; i++) {
    const started = performance.now();
    const put = await request(url, { method: 'PUT', headers, body: { name: `bench-test-${i}`, path } });
    if (put.status !== 202 && put.status !== 200) throw new Error(`PUT ${url} answered ${put.status}: ${put.body}`);
    const jobId = put.json().job_id;
    let job = put.json();
    let status = put.status;
    while (status !== 200) {
      const res = await request(`${url}?job_id=${encodeURIComponent(jobId)}&wait=5`, { headers });
      polls += i >= warmup ? 1 : 0;
      if (res.status !== 200 && res.status !== 202) throw new Error(`GET ${url}?job_id=${jobId} answered ${res.status}: ${res.body}`);
      status = res.status;
      job = res.json();
    }
    const elapsed = performance.now() - started;
    if (i < warmup) continue;
    times.push(elapsed);
    if (job.status !== 'completed') failures.push(job.message);
  }
  times.sort((a, b) => a - b);
  return { median: percentile(times, 50), p95: percentile(times, 95), max: times.at(-1), failures, getsPerJob: polls / count };
}

/**
 * Engine throughput with trivial jobs: N local share tests enqueued first, then the engine
 * started (default concurrency), timed until every job has finished. On SQLite in `dir`, or
 * on the PostgreSQL database `databaseUrl` (its jobs table empty; pool as the server's, 10).
 */
export async function engineThroughput({ dir, jobs = 2000, timeoutMs = 60_000, databaseUrl }) {
  const { wireCore, createAesGcmSecretBox } = await import('@dms/core/runtime');
  const { createShareDriverRegistry } = await import('@dms/core/drivers');
  const root = join(dir, 'roots');
  mkdirSync(join(root, 'd'), { recursive: true });
  const storage = databaseUrl
    ? (await import('@dms/core/postgres')).openPostgresStorage({ url: databaseUrl })
    : (await import('@dms/core/sqlite')).openSqliteStorage({ file: join(dir, 'jobs.sqlite') });
  await storage.migrate();
  const { engine } = wireCore({ storage, secrets: createAesGcmSecretBox(randomBytes(32)), drivers: createShareDriverRegistry({ localRoots: [root] }) });
  try {
    const payload = {
      kind: 'share_test',
      label: 'x',
      location: { type: 'local', host: 'localhost', path: 'd', options: null, username: null, password: null },
    };
    const enqueueStarted = performance.now();
    for (let i = 0; i < jobs; i++) await engine.enqueue('share_test', payload, { nasId: 1, shareId: null, total: 2 });
    const enqueueSeconds = (performance.now() - enqueueStarted) / 1000;

    const started = performance.now();
    await engine.start();
    let counts;
    for (;;) {
      counts = await storage.jobs.countByStatus();
      if (counts.completed + counts.failed >= jobs) break;
      if (performance.now() - started > timeoutMs) throw new Error(`engine finished only ${counts.completed + counts.failed}/${jobs} jobs in ${timeoutMs} ms`);
      await sleep(20);
    }
    const seconds = (performance.now() - started) / 1000;
    return { perSecond: jobs / seconds, seconds, enqueuePerSecond: jobs / enqueueSeconds, completed: counts.completed, failed: counts.failed };
  } finally {
    await engine.stop();
    await storage.close();
  }
}
