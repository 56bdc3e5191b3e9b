// Remote scans walking in parallel (issue 43): one tree served by Samba and NFS-Ganesha on
// 127.0.0.1, scanned by the drivers with an analytics builder as a job scans it, each against
// a baseline taken in the same run on the same tree:
// - SMB: our scan (4 smbclient sessions) vs `smbclient -c 'recurse; ls'`, alternated;
// - NFS v4: 8 listing calls in flight on the connection vs 1, alternated (entries/s of both);
// and the worst event-loop delay of this process during each scan (it does nothing else then).
// Standalone: `node bench/remote-scan-bench.mjs [--files N]` in packages/http-api after a build
// prints the rows and merges them into results.json.
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { ScanAnalyticsBuilder } from '@dms/core';
import { ganeshaCheck, sambaCheck, startGaneshaServer, startSambaServer } from '@dms/core/testing';
import { makeTempDir, removeTempDir, round } from './lib.mjs';
import { mergeResults, printResults } from './report.mjs';
import { generateTree } from './scan-bench.mjs';

const coreDist = new URL('../../core/dist/', import.meta.url);
const { createSmbDriver } = await import(new URL('adapters/smb/smb-driver.js', coreDist).href);
const { createNfsDriver } = await import(new URL('adapters/nfs/nfs-driver.js', coreDist).href);

export const remoteScanTargets = {
  'scan.smb.ratio_vs_smbclient_recurse': { op: '<=', value: 0.6 },
  'scan.smb.loop_delay_max_ms': { op: '<', value: 100 },
  'scan.nfs.loop_delay_max_ms': { op: '<', value: 100 },
};

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const user = { name: 'dmsbench', password: 'bench-remote-scan-pw' };

function run() {
  return { signal: new AbortController().signal, timeoutMs: 10_000, onStep() {}, onProgress() {} };
}

const threadCpuMs = () => {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
};

/**
 * Seconds of `scan()`, the worst event-loop delay meanwhile (10 ms resolution), and the most CPU
 * this thread spent between two 10 ms ticks: on a loaded machine a tick is also late when the
 * thread waited for a core, and the busy figure tells what the scan's own code held the loop for.
 */
async function timed(scan) {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  let busyMaxMs = 0;
  let lastCpu = threadCpuMs();
  const ticker = setInterval(() => {
    const cpu = threadCpuMs();
    busyMaxMs = Math.max(busyMaxMs, cpu - lastCpu);
    lastCpu = cpu;
  }, 10);
  const started = performance.now();
  const result = await scan();
  const seconds = (performance.now() - started) / 1000;
  clearInterval(ticker);
  loop.disable();
  return { result, seconds, loopDelayMaxMs: loop.max / 1e6, loopBusyMaxMs: busyMaxMs };
}

/** `smbclient -c 'recurse; ls'` of the share, its output read and dropped as a user's terminal would get it. */
function smbclientRecurse(samba, authFile) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('smbclient', [`//${samba.host}/data`, '-p', String(samba.port), '-A', authFile, '-I', samba.host, '-d', '0', '-c', 'recurse; ls'], {
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { PATH: process.env.PATH, LC_ALL: 'C' },
    });
    let lines = 0;
    child.stdout.on('data', (chunk) => {
      for (const byte of chunk) if (byte === 10) lines += 1;
    });
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve({ seconds: (performance.now() - started) / 1000, lines }) : reject(new Error(`smbclient exited ${code}`)),
    );
  });
}

/**
 * @param {{ record: (name: string, value: number, unit: string) => void, notes: string[], log: (message: string) => void, tree?: { dirs: number, files: number }, rounds?: number }} bench
 */
export async function remoteScanBench({ record, notes, log, tree: shape = { dirs: 200, files: 1000 }, rounds = 3 }) {
  const smbCheck = sambaCheck();
  const nfsCheck = ganeshaCheck();
  if (!smbCheck.ok && !nfsCheck.ok) {
    notes.push(`scan.smb / scan.nfs: skipped, ${smbCheck.reason ?? ''} ${nfsCheck.reason ?? ''}`);
    return;
  }
  const base = existsSync('/dev/shm') ? makeTempDir('dms-bench-remote-', '/dev/shm') : makeTempDir('dms-bench-remote-');
  const treeDir = join(base, 'tree');
  const tree = generateTree(treeDir, shape);
  const entries = tree.count + shape.dirs + 1;
  const where = `${tree.count} files in ${shape.dirs} dirs${base.startsWith('/dev/shm') ? ' on tmpfs' : ''}`;
  const servers = [];
  try {
    if (smbCheck.ok) {
      const samba = await startSambaServer({ shares: { data: treeDir }, users: [user] });
      servers.push(samba);
      const authFile = join(base, 'auth');
      writeFileSync(authFile, `username = ${user.name}\npassword = ${user.password}\n`, { mode: 0o600 });
      const location = {
        type: 'smb_v3',
        host: samba.host,
        path: 'data',
        options: new Map([['port', String(samba.port)]]),
        username: user.name,
        password: user.password,
      };
      const driver = createSmbDriver();
      const seconds = { ours: [], recurse: [] };
      const loopDelays = [];
      const loopBusy = [];
      // One warm-up each (page cache, smbd's caches), then the two alternated `rounds` times.
      for (let i = 0; i <= rounds; i++) {
        const builder = new ScanAnalyticsBuilder(Date.now());
        const ours = await timed(() => driver.scan(location, { ...run(), analytics: builder }));
        if (ours.result.file_count !== tree.count || ours.result.file_size_sum !== tree.sum) throw new Error(`SMB scan wrong: ${JSON.stringify(ours.result)}`);
        builder.result();
        const recurse = await smbclientRecurse(samba, authFile);
        if (i === 0) continue;
        seconds.ours.push(ours.seconds);
        seconds.recurse.push(recurse.seconds);
        loopDelays.push(ours.loopDelayMaxMs);
        loopBusy.push(ours.loopBusyMaxMs);
      }
      const ours = median(seconds.ours);
      const recurse = median(seconds.recurse);
      record('scan.smb.seconds', ours, 's');
      record('scan.smb.ratio_vs_smbclient_recurse', ours / recurse, 'ratio');
      record('scan.smb.loop_delay_max_ms', Math.max(...loopDelays), 'ms');
      record('scan.smb.loop_busy_max_ms', Math.max(...loopBusy), 'ms');
      const shown = (values) => values.map((x) => round(x, 3)).join('/');
      notes.push(
        `scan.smb: ${where}, served by Samba on 127.0.0.1 (SMB 3.1.1); the SMB driver's scan (4 smbclient sessions, analytics built) vs smbclient -c 'recurse; ls' on the same share, alternated ${rounds} times after a warm-up, medians: ours ${round(ours, 3)} s (${shown(seconds.ours)}), recurse ${round(recurse, 3)} s (${shown(seconds.recurse)}); loop delay max per scan ${shown(loopDelays)} ms, of which the scan's own CPU at most ${shown(loopBusy)} ms; load average ${loadavg()[0].toFixed(1)}`,
      );
      log(`scan.smb: ours ${round(ours, 3)} s, smbclient recurse ${round(recurse, 3)} s`);
    }
    if (nfsCheck.ok) {
      const ganesha = await startGaneshaServer({ exportPath: treeDir, versions: [4] });
      servers.push(ganesha);
      const location = {
        type: 'nfs_v4',
        host: ganesha.host,
        path: ganesha.pseudo,
        options: new Map([['port', String(ganesha.port)]]),
        username: null,
        password: null,
      };
      const drivers = { eight: createNfsDriver(), one: createNfsDriver({ concurrency: 1 }) };
      const seconds = { eight: [], one: [] };
      const loopDelays = [];
      const loopBusy = [];
      for (let i = 0; i <= rounds; i++) {
        for (const kind of ['eight', 'one']) {
          const builder = new ScanAnalyticsBuilder(Date.now());
          const scan = await timed(() => drivers[kind].scan(location, { ...run(), analytics: builder }));
          if (scan.result.file_count !== tree.count || scan.result.file_size_sum !== tree.sum)
            throw new Error(`NFS scan wrong: ${JSON.stringify(scan.result)}`);
          builder.result();
          if (i === 0) continue;
          seconds[kind].push(scan.seconds);
          if (kind === 'eight') loopDelays.push(scan.loopDelayMaxMs);
          if (kind === 'eight') loopBusy.push(scan.loopBusyMaxMs);
        }
      }
      const eight = median(seconds.eight);
      const one = median(seconds.one);
      record('scan.nfs.driver_entries_per_s', entries / eight, 'entries/s');
      record('scan.nfs.ratio_vs_one_in_flight', eight / one, 'ratio');
      record('scan.nfs.loop_delay_max_ms', Math.max(...loopDelays), 'ms');
      record('scan.nfs.loop_busy_max_ms', Math.max(...loopBusy), 'ms');
      const shown = (values) => values.map((x) => round(x, 3)).join('/');
      notes.push(
        `scan.nfs (driver): ${where}, exported by NFS-Ganesha on 127.0.0.1, scanned as nfs_v4 by the driver with analytics built, 8 listing calls in flight vs 1, alternated ${rounds} times after a warm-up, medians: 8 in flight ${round(eight, 3)} s (${shown(seconds.eight)}, ${round(entries / eight)} entries/s), 1 in flight ${round(one, 3)} s (${shown(seconds.one)}, ${round(entries / one)} entries/s); loop delay max per scan ${shown(loopDelays)} ms, of which the scan's own CPU at most ${shown(loopBusy)} ms; load average ${loadavg()[0].toFixed(1)}`,
      );
      log(`scan.nfs: 8 in flight ${round(eight, 3)} s, 1 in flight ${round(one, 3)} s`);
    }
  } finally {
    for (const server of servers) await server.stop();
    removeTempDir(base);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const at = process.argv.indexOf('--files');
  const files = at > 0 ? Number(process.argv[at + 1]) : 200_000;
  const results = [];
  const notes = [];
  const t0 = performance.now();
  await remoteScanBench({
    record: (name, value, unit) => results.push({ name, value: round(value, unit === 'ratio' ? 3 : 2), unit }),
    notes,
    log: (message) => process.stderr.write(`[bench +${((performance.now() - t0) / 1000).toFixed(1)}s] ${message}\n`),
    tree: { dirs: 200, files: Math.ceil(files / 200) },
  });
  printResults(results, remoteScanTargets, notes);
  if (!process.argv.includes('--no-write')) mergeResults(new URL('results.json', import.meta.url).pathname, results);
}
