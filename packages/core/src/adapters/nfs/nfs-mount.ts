import type { Socket } from 'node:net';
import { DriverError, type DriverRun } from '../../ports/share-driver.js';
import { tcpConnect } from '../share-drivers/net-probes.js';
import { inWords } from './nfs-messages.js';
import { getPort, programs } from './nfs-programs.js';
import { decodeMnt } from './nfs-readdir.js';
import { authSys, rpcCall, type RpcCredential } from './rpc-call.js';
import { XdrWriter } from './xdr.js';

const MOUNTPROC3_MNT = 1;
const MOUNTPROC3_UMNT = 3;

export async function withSocket<T>(socket: Socket, fn: (socket: Socket) => Promise<T>): Promise<T> {
  try {
    return await fn(socket);
  } finally {
    socket.destroy();
  }
}

/** The MOUNT v3 service's port: `mountport=` when set, else rpcbind's answer on port 111. */
export async function mountPortOf(host: string, address: string, mountPort: number | undefined, run: DriverRun): Promise<number> {
  if (mountPort !== undefined) return mountPort;
  const rpcbind = await tcpConnect(address, 111, host, run.timeoutMs, run.signal).catch((error: unknown) => {
    if (!(error instanceof DriverError)) throw error;
    throw new DriverError(`cannot reach rpcbind on host '${host}' (port 111) to find its MOUNT service: ${error.message}; set option mountport=`);
  });
  const port = await withSocket(rpcbind, (socket) =>
    inWords({ host, port: 111, service: 'rpcbind', timeoutMs: run.timeoutMs }, () => getPort(socket, programs.mount, 3, run.timeoutMs, run.signal)),
  );
  if (port === 0) throw new DriverError(`host '${host}' has no MOUNT v3 service registered with rpcbind`);
  return port;
}

/** Where MOUNT v3 answers: the host as the user named it (for messages), its address and MOUNT's port. */
export interface MountService {
  host: string;
  address: string;
  port: number;
}

/**
 * MOUNT v3 MNT of `exported` on a connection of its own: the export's root handle, or the mount
 * status it failed with. With `release`, a UMNT follows the handle at once (best effort), so the
 * server's mount list does not keep a client that never mounted anything.
 */
export async function mountRoot(
  service: MountService,
  exported: string,
  run: Pick<DriverRun, 'timeoutMs' | 'signal'>,
  options: { credential?: RpcCredential; release?: boolean } = {},
): Promise<ReturnType<typeof decodeMnt>> {
  const { host, address, port } = service;
  const { timeoutMs, signal } = run;
  const credential = options.credential ?? authSys();
  const args = new XdrWriter().string(exported).bytes();
  const socket = await tcpConnect(address, port, host, timeoutMs, signal);
  return withSocket(socket, (mount) =>
    inWords({ host, port, service: 'MOUNT v3', timeoutMs }, async () => {
      const mounted = await rpcCall(mount, { program: programs.mount, version: 3, procedure: MOUNTPROC3_MNT, args, credential }, timeoutMs, signal, decodeMnt);
      if (options.release === true && 'fh' in mounted)
        await rpcCall(mount, { program: programs.mount, version: 3, procedure: MOUNTPROC3_UMNT, args, credential }, timeoutMs, signal, () => undefined).catch(
          () => {},
        );
      return mounted;
    }),
  );
}
