import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NasType } from '../../domain/common.js';
import { freePort } from '../../testing/fixture-support.js';
import { recordingRun, shareLocation, type RecordingRun } from '../../testing/recording-run.js';
import { ganeshaCheck, exportTree, startGaneshaServer, type GaneshaServer } from '../../testing/ganesha-server.js';
import { createNfsDriver } from './nfs-driver.js';

const driver = createNfsDriver();
const outcomes = (run: RecordingRun) => run.steps.map((s) => `${s.name}:${s.outcome}`);

function makeTree(): string {
  const tree = mkdtempSync(join(tmpdir(), 'dms-nfs-tree-'));
  mkdirSync(join(tree, 'sub'));
  writeFileSync(join(tree, 'sub', 'f'), 'x');
  writeFileSync(join(tree, 'file'), 'y');
  return tree;
}

/** A TCP server that answers every connection with `reply` (or nothing at all). */
async function fakeServer(reply?: Buffer): Promise<{ port: number; close(): void }> {
  const sockets: Socket[] = [];
  const server: Server = createServer((socket) => {
    sockets.push(socket);
    socket.on('error', () => {});
    if (reply) socket.once('data', () => socket.write(reply));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

describe('NFS driver without a server', () => {
  const at = (type: NasType, port: number) => shareLocation(type, { path: '/export', options: { port: String(port) } });

  it('announces its steps', () => {
    expect(driver.testSteps(at('nfs_v4', 2049))).toEqual(['resolve_host', 'connect', 'negotiate_protocol', 'open_path']);
  });

  it('fails within the timeout when the host accepts TCP but never answers RPC', async () => {
    const silent = await fakeServer();
    try {
      const run = recordingRun({ timeoutMs: 300 });
      const started = performance.now();
      const result = await driver.test(at('nfs_v4', silent.port), run);
      expect(performance.now() - started).toBeLessThan(2000);
      expect(result).toEqual({
        ok: false,
        message: `no answer to a NFS v4 request from host '127.0.0.1' on port ${silent.port} within 300 ms`,
      });
      expect(outcomes(run)).toEqual(['resolve_host:ok', 'connect:ok', 'negotiate_protocol:failed', 'open_path:skipped']);
    } finally {
      silent.close();
    }
  });

  it('recognises a server that does not speak RPC', async () => {
    const http = await fakeServer(Buffer.from('HTTP/1.1 400 Bad Request\r\n\r\n'));
    try {
      const result = await driver.test(at('nfs_v3', http.port), recordingRun({ timeoutMs: 2000 }));
      expect(result).toEqual({
        ok: false,
        message: `host '127.0.0.1' does not answer as an RPC server on port ${http.port}`,
      });
    } finally {
      http.close();
    }
  });

  it('fails the connect step on a closed port', async () => {
    const port = await freePort();
    const run = recordingRun();
    const result = await driver.test(at('nfs_v4', port), run);
    expect(result).toEqual({
      ok: false,
      message: `connection refused by host '127.0.0.1' on port ${port} (nothing listening there?)`,
    });
    expect(outcomes(run)).toEqual(['resolve_host:ok', 'connect:failed', 'negotiate_protocol:skipped', 'open_path:skipped']);
  });

  it('issue 42: a scan of a host that accepts TCP but never answers fails within the timeout per call', async () => {
    const silent = await fakeServer();
    try {
      await expect(driver.scan(at('nfs_v4', silent.port), recordingRun({ timeoutMs: 300 }))).rejects.toThrow(
        `no answer to a NFS v4 request from host '127.0.0.1' on port ${silent.port} within 300 ms`,
      );
    } finally {
      silent.close();
    }
  });
});

const v4check = ganeshaCheck();

// Without the real peer this prints why it skips; with CI=true requireTools fails instead.
describe.skipIf(!v4check.ok)('NFS driver against NFS-Ganesha serving v4 only', () => {
  let tree: string;
  let ganesha: GaneshaServer;
  const at = (type: NasType, path: string) => shareLocation(type, { host: ganesha.host, path, options: { port: String(ganesha.port) } });

  beforeAll(async () => {
    tree = makeTree();
    ganesha = await startGaneshaServer({ exportPath: tree });
  });
  afterAll(async () => {
    await ganesha?.stop();
    rmSync(tree, { recursive: true, force: true });
  });

  it('passes every step for the export and a directory inside it', async () => {
    for (const [path, shown] of [
      ['/export', '/export'],
      ['export/sub', '/export/sub'],
    ] as const) {
      const run = recordingRun();
      expect(await driver.test(at('nfs_v4', path), run)).toMatchObject({ ok: true, message: `reached export '${shown}' on 127.0.0.1 (NFS v4)` });
      expect(outcomes(run)).toEqual(['resolve_host:ok', 'connect:ok', 'negotiate_protocol:ok', 'open_path:ok']);
    }
  });

  it('reports a missing path', async () => {
    const run = recordingRun();
    const result = await driver.test(at('nfs_v4', '/export/nope'), run);
    expect(result).toEqual({ ok: false, message: "path '/export/nope' not found on host '127.0.0.1'" });
    expect(outcomes(run).at(-1)).toBe('open_path:failed');
  });

  it('reports a file where a directory was expected', async () => {
    const result = await driver.test(at('nfs_v4', '/export/file'), recordingRun());
    expect(result).toEqual({ ok: false, message: "path '/export/file' is not a directory" });
  });

  it('says plainly that a v4-only server does not speak v3', async () => {
    const run = recordingRun();
    const result = await driver.test(at('nfs_v3', tree), run);
    expect(result).toEqual({ ok: false, message: "server '127.0.0.1' does not speak NFS v3 (it offers v4)" });
    expect(outcomes(run)).toEqual(['resolve_host:ok', 'connect:ok', 'negotiate_protocol:failed', 'open_path:skipped']);
  });
});

const v3check = ganeshaCheck({ v3: true });

// Without the real peer this prints why it skips; with CI=true requireTools fails instead.
describe.skipIf(!v3check.ok)('NFS driver against NFS-Ganesha serving v3 and v4 (with rpcbind)', () => {
  let tree: string;
  let ganesha: GaneshaServer;
  const at = (type: NasType, path: string, options: Record<string, string> = {}) =>
    shareLocation(type, { host: ganesha.host, path, options: { port: String(ganesha.port), ...options } });

  beforeAll(async () => {
    tree = makeTree();
    ganesha = await exportTree(tree, [3, 4]);
  });
  afterAll(() => ganesha?.stop());

  it('finds the export through rpcbind and MOUNT', async () => {
    const run = recordingRun();
    expect(await driver.test(at('nfs_v3', tree), run)).toMatchObject({ ok: true, message: `reached export '${tree}' on 127.0.0.1 (NFS v3)` });
    expect(outcomes(run)).toEqual(['resolve_host:ok', 'connect:ok', 'negotiate_protocol:ok', 'open_path:ok']);
    expect(await driver.test(at('nfs_v3', `${tree}/sub`), recordingRun())).toMatchObject({
      ok: true,
      message: `reached export '${tree}' on 127.0.0.1 (NFS v3), which covers '${tree}/sub'`,
    });
  });

  it('takes the MOUNT port from mountport=', async () => {
    const location = at('nfs_v3', tree, { mountport: String(ganesha.mountPort) });
    expect(await driver.test(location, recordingRun())).toMatchObject({ ok: true });
  });

  it('lists the exports when the path is not among them', async () => {
    const result = await driver.test(at('nfs_v3', '/srv/elsewhere'), recordingRun());
    expect(result).toEqual({
      ok: false,
      message: `path '/srv/elsewhere' is not exported by host '127.0.0.1' (exports: ${tree})`,
    });
  });

  it('serves v4 on the same port', async () => {
    expect(await driver.test(at('nfs_v4', '/export/sub'), recordingRun())).toMatchObject({
      ok: true,
      message: "reached export '/export/sub' on 127.0.0.1 (NFS v4)",
    });
  });
});
