import { describe, expect, it } from 'vitest';
import { createHostPolicy, type ResolveHost } from './host-policy.js';

const dns: ResolveHost = async (host) => {
  const table: Record<string, string[]> = { 'nas.lan': ['10.1.2.3'], 'mixed.lan': ['10.1.2.4', '203.0.113.9'], 'v6.lan': ['fd00::5'] };
  const found = table[host];
  if (!found) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
  return found;
};

describe('share test host policy (security review 16)', () => {
  it('allows every host when the list is empty', async () => {
    expect(await createHostPolicy([], dns).allows('anything.example')).toBe(true);
  });

  it('matches addresses and CIDR blocks, IPv4 and IPv6, and bracketed hosts', async () => {
    const policy = createHostPolicy(['10.0.0.0/8', '192.0.2.7', 'fd00::/8'], dns);
    expect(await policy.allows('10.200.0.1')).toBe(true);
    expect(await policy.allows('192.0.2.7')).toBe(true);
    expect(await policy.allows('192.0.2.8')).toBe(false);
    expect(await policy.allows('[fd00::1]')).toBe(true);
    expect(await policy.allows('[2001:db8::1]')).toBe(false);
    expect(await policy.allows('127.0.0.1')).toBe(false);
  });

  it('allows a listed name, or a name whose every address is allowed', async () => {
    const policy = createHostPolicy(['10.0.0.0/8', 'Files.Example', 'fd00::/8'], dns);
    expect(await policy.allows('files.example')).toBe(true);
    expect(await policy.allows('nas.lan')).toBe(true);
    expect(await policy.allows('v6.lan')).toBe(true);
    expect(await policy.allows('mixed.lan')).toBe(false);
    expect(await policy.allows('unknown.lan')).toBe(false);
  });

  it('names only: an unlisted name is refused without a lookup', async () => {
    const policy = createHostPolicy(['files.example'], () => Promise.reject(new Error('no lookup expected')));
    expect(await policy.allows('other.example')).toBe(false);
    expect(await policy.allows('10.0.0.1')).toBe(false);
  });

  it('finding 20.4: at connection time, checks the addresses the caller resolved and will connect to', () => {
    const policy = createHostPolicy(['10.0.0.0/8', 'files.example'], () => Promise.reject(new Error('no lookup expected')));
    expect(policy.allowsResolved('nas.lan', ['10.1.2.3'])).toBe(true);
    expect(policy.allowsResolved('nas.lan', ['10.1.2.3', '127.0.0.1'])).toBe(false);
    expect(policy.allowsResolved('nas.lan', [])).toBe(false);
    expect(policy.allowsResolved('127.0.0.1', ['127.0.0.1'])).toBe(false);
    expect(policy.allowsResolved('10.0.0.1', ['10.0.0.1'])).toBe(true);
    // A listed name is trusted whatever it resolves to: the admin named it.
    expect(policy.allowsResolved('FILES.example', ['127.0.0.1'])).toBe(true);
    expect(createHostPolicy([]).allowsResolved('anything', ['127.0.0.1'])).toBe(true);
  });
});
