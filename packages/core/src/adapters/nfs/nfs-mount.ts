import type { Socket } from 'node:net';
import { DriverError, type DriverRun } from '../../ports/share-driver.js';
import { tcpConnect } from '../share-drivers/net-probes.js';
import { inWords } from './nfs-messages.js';
import { getPort, programs } from './nfs-programs.js';

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
