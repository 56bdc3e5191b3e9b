import { lookup } from 'node:dns/promises';
import { connect, isIP, type Socket } from 'node:net';
import { DriverError, type DriverRun } from '../../ports/share-driver.js';

/** "300 ms" below a second, "10 s" above: timeouts end up in messages users read. */
export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${Math.round(ms / 100) / 10} s`;
}

/** Host names arrive as stored (`[::1]` for IPv6); sockets and argv want them bare. */
export function bareHost(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/** Rejects with the signal's reason as soon as it aborts, for awaits that cannot be cancelled. */
function abortRace<T>(signal: AbortSignal, promise: Promise<T>, timeoutMs: number, onTimeout: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => finish(() => reject(onTimeout())), timeoutMs);
    const onAbort = () => finish(() => reject(signal.reason));
    const finish = (settle: () => void) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      settle();
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => finish(() => resolve(value)),
      (error: unknown) => finish(() => reject(error)),
    );
  });
}

/** Every address of a name, in the resolver's order (the first is where a plain lookup goes). */
export type LookupAll = (name: string) => Promise<string[]>;

const systemLookupAll: LookupAll = async (name) => (await lookup(name, { all: true })).map((entry) => entry.address);

/** "10.0.0.5, 10.0.0.6 and 2 more": the addresses a refusal names. */
function listAddresses(addresses: readonly string[]): string {
  const shown = addresses.slice(0, 3).join(', ');
  return addresses.length > 3 ? `${shown} and ${addresses.length - 3} more` : shown;
}

/**
 * Resolves a share's host to the one address to connect to, bounded because getaddrinfo cannot
 * be cancelled. With `run.allowedHosts`, the host must be allowed for every address of this one
 * lookup, and the address answered is one of them: the caller connects to what was checked, so
 * a DNS answer that changes afterwards (rebinding) reaches nothing.
 */
export async function resolveHost(
  host: string,
  run: Pick<DriverRun, 'timeoutMs' | 'signal' | 'allowedHosts'>,
  lookupAll: LookupAll = systemLookupAll,
): Promise<string> {
  const { timeoutMs, signal } = run;
  const name = bareHost(host);
  const addresses = isIP(name) !== 0 ? [name] : await lookupAddresses(name, timeoutMs, signal, lookupAll);
  const address = addresses[0];
  if (address === undefined) throw new DriverError(`host '${name}' not found (DNS lookup failed)`);
  if (run.allowedHosts && !(await run.allowedHosts.allows(name, addresses))) {
    const resolved = isIP(name) !== 0 ? '' : ` (it resolves to ${listAddresses(addresses)})`;
    throw new DriverError(`host '${name}'${resolved} is not among the share_test_allowed_hosts of this server; an admin can add it in the settings`);
  }
  return address;
}

async function lookupAddresses(name: string, timeoutMs: number, signal: AbortSignal, lookupAll: LookupAll): Promise<string[]> {
  try {
    return await abortRace(signal, lookupAll(name), timeoutMs, () => new DriverError(`resolving host '${name}' took longer than ${formatMs(timeoutMs)}`));
  } catch (error) {
    if (error instanceof DriverError || signal.aborted) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTFOUND' || code === 'ENODATA') throw new DriverError(`host '${name}' not found (DNS lookup failed)`);
    if (code === 'EAI_AGAIN') throw new DriverError(`could not resolve host '${name}': the DNS server did not answer`);
    throw new DriverError(`could not resolve host '${name}': ${(error as Error).message}`);
  }
}

function connectMessage(code: string | undefined, host: string, port: number, timeoutMs: number): string {
  switch (code) {
    case 'ECONNREFUSED':
      return `connection refused by host '${host}' on port ${port} (nothing listening there?)`;
    case 'ETIMEDOUT':
      return `no answer from host '${host}' on port ${port} within ${formatMs(timeoutMs)}`;
    case 'EHOSTUNREACH':
      return `host '${host}' is unreachable`;
    case 'ENETUNREACH':
      return `the network of host '${host}' is unreachable`;
    case 'ECONNRESET':
      return `host '${host}' reset the connection on port ${port}`;
    default:
      return `could not connect to host '${host}' on port ${port}${code ? ` (${code})` : ''}`;
  }
}

/**
 * Opens a TCP connection within `timeoutMs`. The caller owns the returned socket and must
 * destroy it; `host` is only used in messages.
 */
export function tcpConnect(address: string, port: number, host: string, timeoutMs: number, signal: AbortSignal): Promise<Socket> {
  return new Promise<Socket>((resolve, reject) => {
    signal.throwIfAborted();
    const socket = connect({ host: address, port });
    const timer = setTimeout(() => fail(new DriverError(connectMessage('ETIMEDOUT', host, port, timeoutMs))), timeoutMs);
    const onAbort = () => fail(signal.reason);
    const cleanup = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      socket.removeAllListeners('connect');
      socket.removeAllListeners('error');
    };
    const fail = (error: unknown) => {
      cleanup();
      socket.destroy();
      reject(error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once('error', (error: NodeJS.ErrnoException) => fail(new DriverError(connectMessage(error.code, host, port, timeoutMs))));
    socket.once('connect', () => {
      cleanup();
      // Keeps a late reset from crashing the process before the caller listens for errors.
      socket.on('error', () => {});
      resolve(socket);
    });
  });
}

/** `port=` style options; anything but an integer in 1..65535 is a plain-worded error. */
export function portOption(options: ReadonlyMap<string, string | true>, key: string, fallback: number): number {
  const value = options.get(key);
  if (value === undefined) return fallback;
  const port = typeof value === 'string' && /^\d{1,5}$/.test(value) ? Number(value) : Number.NaN;
  if (!(port >= 1 && port <= 65535)) throw new DriverError(`option '${key}' must be a port number between 1 and 65535`);
  return port;
}
