import { BlockList, isIP } from 'node:net';
import { lookup } from 'node:dns/promises';

/** Where share tests and scans may connect (the `share_test_allowed_hosts` setting). */
export interface HostPolicy {
  /** Resolves a name itself: for checks before anything connects (saving a NAS, queueing a job). */
  allows(host: string): Promise<boolean>;
  /**
   * For the place that connects: `addresses` are every address `host` resolved to, in the one
   * lookup whose answer the caller then connects to (no second lookup for DNS to answer otherwise).
   */
  allowsResolved(host: string, addresses: readonly string[]): boolean;
}

export type ResolveHost = (host: string) => Promise<string[]>;

const resolveAll: ResolveHost = async (host) => (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

function addressBlock(entry: string, blocks: BlockList): boolean {
  const [address = '', prefix] = entry.split('/');
  const family = isIP(address);
  if (family === 0) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (prefix === undefined) blocks.addAddress(address, type);
  else blocks.addSubnet(address, Number(prefix), type);
  return true;
}

/**
 * Entries are host names (matched exactly, case-insensitively) or addresses and CIDR blocks.
 * A host name that is not listed is allowed when every address it resolves to is; an empty
 * list allows every host. `allows` is the early check (a NAS saved, a job queued); the share
 * drivers call `allowsResolved` with the addresses they are about to connect to, when a job runs.
 */
export function createHostPolicy(entries: readonly string[], resolve: ResolveHost = resolveAll): HostPolicy {
  if (entries.length === 0) return { allows: async () => true, allowsResolved: () => true };
  const names = new Set<string>();
  const blocks = new BlockList();
  let hasBlocks = false;
  for (const entry of entries) {
    if (addressBlock(entry, blocks)) hasBlocks = true;
    else names.add(entry.toLowerCase());
  }
  const addressAllowed = (address: string) => {
    const family = isIP(address);
    return family !== 0 && blocks.check(address, family === 4 ? 'ipv4' : 'ipv6');
  };
  const bareOf = (host: string) => (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host);
  const allowsResolved = (host: string, addresses: readonly string[]) => {
    const bare = bareOf(host);
    if (isIP(bare) !== 0) return addressAllowed(bare) && addresses.every(addressAllowed);
    if (names.has(bare.toLowerCase())) return true;
    return addresses.length > 0 && addresses.every(addressAllowed);
  };
  return {
    async allows(host) {
      const bare = bareOf(host);
      if (isIP(bare) !== 0) return addressAllowed(bare);
      if (names.has(bare.toLowerCase())) return true;
      if (!hasBlocks) return false;
      try {
        return allowsResolved(bare, await resolve(bare));
      } catch {
        return false;
      }
    },
    allowsResolved,
  };
}
