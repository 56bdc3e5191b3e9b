import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';

export interface SilentServer {
  port: number;
  /** Drops every connection held, and from then on drops each new one at once. */
  release(): void;
  close(): Promise<void>;
}

/**
 * A server that takes connections and never answers, until `release`: a share test against it
 * (an NFS or SMB share on this port) waits at its negotiate step (working, two steps of four
 * done), then fails when the connections drop. The job's moves are the test's to make, with no
 * clock involved; a job that starts after the release fails at once instead of waiting forever.
 */
export async function silentServer(): Promise<SilentServer> {
  const sockets = new Set<Socket>();
  let released = false;
  const server: Server = createServer((socket) => {
    socket.on('error', () => {});
    if (released) socket.destroy();
    else sockets.add(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const release = () => {
    released = true;
    for (const socket of sockets) socket.destroy();
    sockets.clear();
  };
  return {
    port: (server.address() as AddressInfo).port,
    release,
    close: () => (release(), new Promise((resolve) => server.close(() => resolve()))),
  };
}
