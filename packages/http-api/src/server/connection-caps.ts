import type { Server } from 'node:http';
import { isIP } from 'node:net';
import { addressKey, unmappedAddress } from '@dms/core/runtime';
import { trustedProxyList } from '../rate-limit/client-address.js';
import type { HttpLimits } from './http-limits.js';

/**
 * Caps the server's connections: in all (Node closes a connection past `maxConnections` at
 * accept, before any work) and per client address (closed here, as the connection arrives).
 * No answer is written to a refused connection: it has sent no request yet.
 */
export function capConnections(server: Server, limits: Pick<HttpLimits, 'maxConnections' | 'maxConnectionsPerAddress' | 'trustedProxies'>): void {
  server.maxConnections = limits.maxConnections;
  const trusted = limits.trustedProxies.length > 0 ? trustedProxyList(limits.trustedProxies) : undefined;
  const isTrusted = (address: string) => {
    const version = isIP(address);
    return trusted !== undefined && version !== 0 && trusted.check(address, version === 4 ? 'ipv4' : 'ipv6');
  };
  const open = new Map<string, number>();
  server.on('connection', (socket) => {
    // Undefined once the client has already gone; nothing to count then.
    const address = socket.remoteAddress;
    if (address === undefined || isTrusted(unmappedAddress(address))) return;
    const key = addressKey(address);
    const count = (open.get(key) ?? 0) + 1;
    if (count > limits.maxConnectionsPerAddress) {
      socket.destroy();
      return;
    }
    open.set(key, count);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left > 0) open.set(key, left);
      else open.delete(key);
    });
  });
}
