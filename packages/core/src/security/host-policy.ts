import { BlockList, isIP } from 'node:net';
import { lookup } from 'node:dns/promises';

/** Where share tests and scans may connect (the `share_test_allowed_hosts` setting). */
export interface HostPolicy {
  allows(host: string): Promise<boolean>;
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
 * list allows every host. Resolution is checked when the job is queued: the driver resolves
 * again when it connects, so a name whose DNS answer changes in between is not covered.
 */
export function createHostPolicy(entries: readonly string[], resolve: ResolveHost = resolveAll): HostPolicy {
  if (entries.length === 0) return { allows: async () => true };
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
  return {
    async allows(host) {
      const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
      if (isIP(bare) !== 0) return addressAllowed(bare);
      if (names.has(bare.toLowerCase())) return true;
      if (!hasBlocks) return false;
      try {
        const addresses = await resolve(bare);
        return addresses.length > 0 && addresses.every(addressAllowed);
      } catch {
        return false;
      }
    },
  };
}
