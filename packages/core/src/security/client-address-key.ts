import { isIP } from 'node:net';

/** An IPv4 address as it is, also when it arrives IPv4-mapped (`::ffff:192.0.2.7`) on a dual-stack socket. */
export function unmappedAddress(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part counts as two; a zone is dropped). */
function ipv6Groups(address: string): string[] {
  const [plain = ''] = address.split('%');
  const split = (part: string) => (part === '' ? [] : part.split(':').flatMap((group) => (group.includes('.') ? ['0', '0'] : [group])));
  const [head = '', tail] = plain.split('::');
  const left = split(head);
  if (tail === undefined) return left;
  const right = split(tail);
  return [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
}

/**
 * The key a client is counted under (connections, budgets, lockouts, failed sign-ins): an IPv4
 * address as it is (also IPv4-mapped), an IPv6 address by its /64, since one host commonly
 * holds a whole /64 and would otherwise take a new address per attempt. Anything else (a
 * name a host gives, such as the console's) as it is.
 */
export function addressKey(address: string): string {
  const plain = unmappedAddress(address);
  if (isIP(plain) !== 6) return plain;
  return `${ipv6Groups(plain)
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, '').toLowerCase())
    .join(':')}::/64`;
}
