import { describe, expect, it } from 'vitest';
import { createUserLine } from './trapd-user-line.js';

describe('the snmptrapd.conf line shown for an SNMPv3 user', () => {
  const user = { security_name: 'dms-notifier', security_level: 'authPriv' as const, auth_protocol: 'SHA-1', priv_protocol: 'AES-128' };

  it('names the engine traps leave from, the protocols in snmptrapd’s words and the passphrases as placeholders', () => {
    expect(createUserLine('8000f22f05abc', user)).toBe('createUser -e 0x8000f22f05abc dms-notifier SHA "<auth passphrase>" AES "<priv passphrase>"');
    expect(createUserLine('8000f22f05abc', { ...user, auth_protocol: 'SHA-512', priv_protocol: 'AES-256' })).toBe(
      'createUser -e 0x8000f22f05abc dms-notifier SHA-512 "<auth passphrase>" AES-256 "<priv passphrase>"',
    );
  });

  it('leaves out what the level does not use, and the engine for an inform', () => {
    expect(createUserLine('8000f22f05abc', { ...user, security_level: 'authNoPriv' })).toBe(
      'createUser -e 0x8000f22f05abc dms-notifier SHA "<auth passphrase>"',
    );
    expect(createUserLine('8000f22f05abc', { ...user, security_level: 'noAuthNoPriv' })).toBe('createUser -e 0x8000f22f05abc dms-notifier');
    expect(createUserLine('8000f22f05abc', user, true)).toBe('createUser dms-notifier SHA "<auth passphrase>" AES "<priv passphrase>"');
  });

  it('quotes a name with spaces', () => {
    expect(createUserLine('80', { ...user, security_name: 'night "ops"' })).toMatch(/^createUser -e 0x80 "night \\"ops\\"" SHA/);
  });
});
