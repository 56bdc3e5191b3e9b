// NFS scans (issue 42): the same tree scanned through the API over NFS-Ganesha (v4, and v3 for
// the notes) and as a local share, alternated in one run. Standalone: `node bench/nfs-scan-bench.mjs`
// in packages/http-api after a build prints the rows without touching results.json.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ganeshaCheck, startGaneshaServer } from '@dms/core/testing';
import { makeTempDir, removeTempDir, request, round } from './lib.mjs';
import { apiScan, generateTree } from './scan-bench.mjs';
import { assertBuilt, startServer } from './server.mjs';

const password = 'bench-nfs-scan-password';
const auth = `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function created(url, body) {
  const res = await request(url, { method: 'POST', headers: { authorization: auth }, body });
  if (res.status !== 201) throw new Error(`POST ${url} answered ${res.status}: ${res.body}`);
  return res.json().id;
}

/**
 * @param {{ record: (name: string, value: number, unit: string) => void, notes: string[], log: (message: string) => void, tree?: { dirs: number, files: number }, rounds?: number }} bench
 */
export async function nfsScanBench({ record, notes, log, tree: shape = { dirs: 200, files: 1000 }, rounds = 3 }) {
  assertBuilt();
  const check = ganeshaCheck({ v3: true });
  if (!check.ok) {
    notes.push(`scan.nfs: skipped, ${check.reason ?? 'NFS-Ganesha is not available'}`);
    return;
  }
  const base = existsSync('/dev/shm') ? makeTempDir('dms-bench-nfs-', '/dev/shm') : makeTempDir('dms-bench-nfs-');
  const treeDir = join(base, 'tree');
  const tree = generateTree(treeDir, shape);
  // Entries a scan lists: the files, their directories and the tree's own.
  const entries = tree.count + shape.dirs + 1;
  const dataDir = makeTempDir('dms-bench-nfs-data-');
  const ganesha = await startGaneshaServer({ exportPath: treeDir, versions: [3, 4] });
  const server = await startServer({ dataDir, adminPassword: password, localRoots: base, label: 'nfs-scan' });
  try {
    const localNas = await created(`${server.base}/nas`, { name: 'local', host: 'localhost', type: 'local' });
    const shares = {
      local: await created(`${server.base}/nas/${localNas}/nas_shares`, { name: 'tree', path: treeDir }),
    };
    for (const type of ['nfs_v4', 'nfs_v3']) {
      const nas = await created(`${server.base}/nas`, { name: type, host: ganesha.host, type });
      const path = type === 'nfs_v4' ? ganesha.pseudo : treeDir;
      shares[type] = await created(`${server.base}/nas/${nas}/nas_shares`, {
        name: 'tree',
        path,
        options: `port=${ganesha.port},mountport=${ganesha.mountPort}`,
      });
    }
    const seconds = { local: [], nfs_v4: [], nfs_v3: [] };
    // One warm-up scan each (inode and Ganesha caches), then the three alternated `rounds` times.
    for (let round = 0; round <= rounds; round++) {
      for (const kind of Object.keys(seconds)) {
        const scan = await apiScan({ base: server.base, auth, shareId: shares[kind] });
        if (scan.job.status !== 'completed' || scan.job.file_count !== tree.count || scan.job.file_size_sum !== tree.sum) {
          throw new Error(`${kind} scan wrong: ${JSON.stringify(scan.job)} (want file_count ${tree.count}, file_size_sum ${tree.sum})`);
        }
        if (round > 0) seconds[kind].push(scan.seconds);
      }
    }
    const local = median(seconds.local);
    const v4 = median(seconds.nfs_v4);
    const v3 = median(seconds.nfs_v3);
    record('scan.nfs.entries_per_s', entries / v4, 'entries/s');
    record('scan.nfs.ratio_vs_local', v4 / local, 'ratio');
    const shown = (values) => values.map((x) => round(x, 3)).join('/');
    notes.push(
      `scan.nfs: ${tree.count} files in ${shape.dirs} dirs${base.startsWith('/dev/shm') ? ' on tmpfs' : ''}, exported by NFS-Ganesha on 127.0.0.1 and scanned through the API as nfs_v4 (the rows), nfs_v3 and local, alternated ${rounds} times after a warm-up, medians: local ${round(local, 3)} s (${shown(seconds.local)}), v4 ${round(v4, 3)} s (${shown(seconds.nfs_v4)}), v3 ${round(v3, 3)} s (${shown(seconds.nfs_v3)}, ${round(entries / v3)} entries/s, ${round(v3 / local, 3)}x local); ratio = NFS seconds / local seconds`,
    );
    log(`scan.nfs: v4 ${round(v4, 3)} s, v3 ${round(v3, 3)} s, local ${round(local, 3)} s`);
  } finally {
    await server.stop();
    await ganesha.stop();
    removeTempDir(base);
    removeTempDir(dataDir);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = [];
  const notes = [];
  const t0 = performance.now();
  await nfsScanBench({
    record: (name, value, unit) => rows.push({ name, value: round(value, unit === 'ratio' ? 3 : 2), unit }),
    notes,
    log: (message) => process.stderr.write(`[bench +${((performance.now() - t0) / 1000).toFixed(1)}s] ${message}\n`),
  });
  for (const row of rows) console.log(`${row.name}\t${row.value}\t${row.unit}`);
  for (const note of notes) console.log(`- ${note}`);
}
