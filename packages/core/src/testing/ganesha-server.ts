import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolCheck } from './require-tool.js';
import { canConnect, freePort, killOnExit, logTail, requireRootTools, stopProcess, waitForPort } from './fixture-support.js';

/**
 * Test fixture: NFS-Ganesha (userspace NFS server, VFS backend) on 127.0.0.1 and a free
 * port, exporting one directory read-only. NFSv4 needs nothing else; NFSv3 needs rpcbind on
 * port 111 (Ganesha refuses to start v3 without registering there), which the fixture starts
 * when none is running. Root only. Ganesha's complaints about DBus and Kerberos are harmless.
 */

export interface GaneshaServerOptions {
  /** The directory to export. */
  exportPath: string;
  /** NFSv4 pseudo path of the export (default /export). */
  pseudo?: string;
  /** NFS versions to serve (default [4]). With 3, MOUNT and rpcbind come along. */
  versions?: ReadonlyArray<3 | 4>;
  /**
   * Map root (as dms presents itself over AUTH_SYS) to nobody (65534), so the server's
   * permission checks apply to it: a directory of mode 000 is then refused. Default: no squash.
   */
  squashRoot?: boolean;
}

export interface GaneshaServer {
  host: string;
  port: number;
  /** MOUNT's port when v3 is served. */
  mountPort: number | undefined;
  pseudo: string;
  dir: string;
  log(): Promise<string>;
  stop(): Promise<void>;
}

/** Exports `tree` (a directory the test made) from a Ganesha of its own; its stop() also removes the tree. */
export async function exportTree(tree: string, versions: GaneshaServerOptions['versions']): Promise<GaneshaServer> {
  const server = await startGaneshaServer({ exportPath: tree, versions });
  return {
    ...server,
    async stop() {
      await server.stop();
      rmSync(tree, { recursive: true, force: true });
    },
  };
}

export const ganeshaInstall = 'apt-get install nfs-ganesha nfs-ganesha-vfs rpcbind';

export function ganeshaCheck(options: { v3?: boolean } = {}): ToolCheck {
  return requireRootTools(['ganesha.nfsd', ...(options.v3 ? ['rpcbind'] : [])], ganeshaInstall);
}

/** Starts rpcbind unless one listens already; resolves with a stopper for ours only. */
async function ensureRpcbind(dir: string): Promise<() => Promise<void>> {
  if (await canConnect(111)) return async () => {};
  const child: ChildProcess = spawn('rpcbind', ['-f'], {
    detached: true,
    stdio: 'ignore',
    env: { ...process.env, PATH: `${process.env['PATH'] ?? ''}:/usr/sbin:/sbin` },
  });
  killOnExit(child);
  await waitForPort(111, child, join(dir, 'none'));
  return () => stopProcess(child);
}

export async function startGaneshaServer(options: GaneshaServerOptions): Promise<GaneshaServer> {
  const versions = options.versions ?? [4];
  const v3 = versions.includes(3);
  const pseudo = options.pseudo ?? '/export';
  const dir = mkdtempSync(join(tmpdir(), 'dms-ganesha-'));
  const recovery = join(dir, 'recovery');
  mkdirSync(recovery);
  const port = await freePort();
  const mountPort = v3 ? await freePort() : undefined;
  const logFile = join(dir, 'ganesha.log');
  const configFile = join(dir, 'ganesha.conf');
  const protocols = versions.join(', ');
  writeFileSync(
    configFile,
    `NFS_CORE_PARAM {
  NFS_Port = ${port};
  ${mountPort === undefined ? '' : `MNT_Port = ${mountPort};`}
  Bind_addr = 127.0.0.1;
  NFS_Protocols = ${protocols};
  Enable_NLM = false;
  Enable_RQUOTA = false;
  Enable_UDP = false;
}
NFSV4 {
  Graceless = true;
  RecoveryBackend = fs;
  RecoveryRoot = ${recovery};
}
EXPORT {
  Export_Id = 1;
  Path = ${options.exportPath};
  Pseudo = ${pseudo};
  Access_Type = RO;
  ${options.squashRoot ? 'Squash = Root_Squash;\n  Anonymous_Uid = 65534;\n  Anonymous_Gid = 65534;' : 'Squash = No_Root_Squash;'}
  Protocols = ${protocols};
  Transports = TCP;
  FSAL { Name = VFS; }
}
`,
  );
  const stopRpcbind = v3 ? await ensureRpcbind(dir) : async () => {};
  const child = spawn('ganesha.nfsd', ['-F', '-f', configFile, '-L', logFile, '-p', join(dir, 'ganesha.pid')], {
    detached: true,
    stdio: 'ignore',
  });
  killOnExit(child);
  const stop = async () => {
    await stopProcess(child);
    await stopRpcbind();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitForPort(port, child, logFile);
    if (mountPort !== undefined) await waitForPort(mountPort, child, logFile);
  } catch (error) {
    await stop();
    throw error;
  }
  return { host: '127.0.0.1', port, mountPort, pseudo, dir, log: () => logTail(logFile, 200), stop };
}
