import type { Context } from 'hono';
import { BlockList, isIP } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import { unmappedAddress } from '@dms/core/runtime';
import { requestHeader } from '../http/request-header.js';

/** The peer address of the TCP connection. */
export function peerAddress(c: Context): string {
  // app.request() in tests has no socket: checked first, since a throw costs more than the lookup.
  const env = c.env as { incoming?: unknown } | undefined;
  if (!env?.incoming) return 'local';
  return getConnInfo(c).remote.address ?? 'unknown';
}

function family(address: string): 'ipv4' | 'ipv6' | undefined {
  const version = isIP(address);
  return version === 4 ? 'ipv4' : version === 6 ? 'ipv6' : undefined;
}

/** Parses DMS_TRUSTED_PROXIES entries (addresses or CIDR blocks); throws naming a bad one. */
export function trustedProxyList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/');
    const type = family(address);
    const bits = prefix === undefined ? undefined : Number(prefix);
    if (!type || (bits !== undefined && (!/^\d{1,3}$/.test(prefix!) || bits > (type === 'ipv4' ? 32 : 128)))) {
      throw new Error(`'${entry}' is not an IP address or CIDR block`);
    }
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, bits, type);
  }
  return list;
}

/**
 * The client's address: the TCP peer, unless the peer is a trusted proxy, in which case the
 * nearest address in X-Forwarded-For that is not itself a trusted proxy. Without trusted
 * proxies no forwarding header is believed, since any client can send one.
 */
export function clientAddressResolver(trusted: readonly string[]): (c: Context) => string {
  if (trusted.length === 0) return peerAddress;
  const list = trustedProxyList(trusted);
  const isTrusted = (address: string) => {
    const bare = unmappedAddress(address);
    const type = family(bare);
    return type !== undefined && list.check(bare, type);
  };
  return (c) => {
    const peer = peerAddress(c);
    if (!isTrusted(peer)) return peer;
    const hops = (requestHeader(c, 'x-forwarded-for') ?? '')
      .split(',')
      .map((hop) => hop.trim())
      .filter((hop) => hop !== '');
    for (let i = hops.length - 1; i >= 0; i -= 1) {
      const hop = hops[i]!;
      if (!isTrusted(hop)) return family(hop) ? hop : peer;
    }
    return hops[0] ?? peer;
  };
}
