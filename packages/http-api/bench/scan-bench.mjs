// Scan of a 200,000-file tree through the API against `du -sb` on the same tree (both warm).
import { spawnSync } from 'node:child_process';
import { closeSync, ftruncateSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { request } from './lib.mjs';

/**
 * dirs × files regular files of 0–2999 bytes. Sparse (ftruncate): the apparent size is what
 * `du -sb` and the scan count, and no data blocks make generation and removal quick.
 */
export function generateTree(root, { dirs = 200, files = 1000 } = {}) {
  let sum = 0;
  for (let d = 0; d < dirs; d++) {
    const dir = join(root, `d${String(d).padStart(3, '0')}`);
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < files; f++) {
      const size = ((d * files + f) * 37) % 3000;
      const fd = openSync(join(dir, `file-${f}.dat`), 'w');
      if (size > 0) ftruncateSync(fd, size);
      closeSync(fd);
      sum += size;
    }
  }
  return { count: dirs * files, sum };
}

/** `du -sb DIR` run `runs` times; the last (warm) run's wall time in seconds. */
export function duSeconds(dir, runs = 2) {
  let seconds = NaN;
  let bytes = NaN;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const result = spawnSync('du', ['-sb', dir], { encoding: 'utf8' });
    seconds = (performance.now() - started) / 1000;
    if (result.status !== 0) throw new Error(`du -sb failed: ${result.stderr}`);
    bytes = Number(result.stdout.split('\t')[0]);
  }
  return { seconds, bytes };
}

/** PUT /nas_shares/{id}/scan, then GET …/scan?job_id=&wait=30 until 200; wall seconds. */
export async function apiScan({ base, auth, shareId }) {
  const url = `${base}/nas_shares/${shareId}/scan`;
  const headers = { authorization: auth };
  const started = performance.now();
  const put = await request(url, { method: 'PUT', headers });
  if (put.status !== 202) throw new Error(`PUT ${url} answered ${put.status}: ${put.body}`);
  const jobId = put.json().job_id;
  let res;
  do {
    res = await request(`${url}?job_id=${encodeURIComponent(jobId)}&wait=30`, { headers });
    if (res.status !== 200 && res.status !== 202) throw new Error(`GET ${url}?job_id=${jobId} answered ${res.status}: ${res.body}`);
  } while (res.status !== 200);
  return { seconds: (performance.now() - started) / 1000, job: res.json() };
}
