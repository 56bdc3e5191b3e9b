import { describe, expect, it } from 'vitest';
import { addressKey } from './client-address-key.js';

describe('the key a client address is counted under', () => {
  it('is the IPv4 address, also IPv4-mapped, and an IPv6 address’s /64', () => {
    expect(addressKey('192.0.2.7')).toBe('192.0.2.7');
    expect(addressKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(addressKey('2001:db8:0:1:aaaa::1')).toBe('2001:db8:0:1::/64');
    expect(addressKey('2001:db8:0:1:bbbb:cccc:dddd:eeee')).toBe('2001:db8:0:1::/64');
    expect(addressKey('2001:DB8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
  });

  it('counts a trailing dotted IPv4 part as two groups, drops a zone, and leaves a host’s own names as they are', () => {
    expect(addressKey('1::2:3:4:5:6.7.8.9')).toBe('1:0:2:3::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('local')).toBe('local');
  });
});
