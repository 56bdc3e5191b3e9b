import { describe, expect, it } from 'vitest';
import { parseInput } from '../validation/zod-details.js';
import { strictInput } from '../validation/strict-input.js';
import { checkV3Security, normalizeV3Security, toNetSnmpUser, v3SecurityFields, v3SecurityWarnings, type V3Security } from './snmp-v3-security.js';

const constants = {
  SecurityLevel: { noAuthNoPriv: 1, authNoPriv: 2, authPriv: 3 },
  AuthProtocols: { none: 1, md5: 2, sha: 3, sha256: 5, sha512: 7 },
  PrivProtocols: { none: 1, des: 2, aes: 4, aes256b: 6 },
};
const full: V3Security = {
  security_name: 'ops',
  security_level: 'authPriv',
  auth_protocol: 'SHA-256',
  auth_passphrase: 'auth-secret',
  priv_protocol: 'AES-128',
  priv_passphrase: 'priv-secret',
};
const body = strictInput(v3SecurityFields);

function messagesOf(input: unknown): string[] {
  try {
    parseInput(body, input);
  } catch (error) {
    return (error as { messages: string[] }).messages;
  }
  return [];
}

describe('SNMPv3 security fields', () => {
  it('refuses MD5 and DES naming why and what is allowed', () => {
    expect(messagesOf({ ...full, auth_protocol: 'MD5' }).join('\n')).toMatch(/auth_protocol is refused: MD5 is broken; use SHA-256 or SHA-512/);
    expect(messagesOf({ ...full, priv_protocol: 'DES' }).join('\n')).toMatch(/priv_protocol is refused: DES is broken; use AES-128 or AES-256/);
    expect(messagesOf({ ...full, auth_protocol: 'SHA-384' }).join('\n')).toMatch(/must be one of SHA-1, SHA-256, SHA-512/);
  });

  it('needs passphrases of at least 8 characters', () => {
    expect(messagesOf({ ...full, auth_passphrase: 'short' }).join('\n')).toMatch(/auth_passphrase is too short \(minimum is 8 characters\)/);
    expect(messagesOf(full)).toEqual([]);
  });

  it('checks what each level needs, and refuses what it does not use', () => {
    expect(checkV3Security(full)).toBeUndefined();
    const missing = checkV3Security({ ...full, priv_passphrase: null }, {}, 'users.0.');
    expect(missing?.details).toEqual({ 'users.0.priv_passphrase': [{ error: 'blank' }] });
    const extra = checkV3Security({ ...full, security_level: 'noAuthNoPriv' }, { priv_protocol: 'AES-128' });
    expect(extra?.messages).toEqual(['priv_protocol is not used at security_level noAuthNoPriv (send null or leave it out)']);
  });

  it('flags SHA-1 and drops secrets a lower level does not use', () => {
    expect(v3SecurityWarnings({ auth_protocol: 'SHA-1' })).toHaveLength(1);
    expect(v3SecurityWarnings({ auth_protocol: 'SHA-512' })).toEqual([]);
    expect(normalizeV3Security({ ...full, security_level: 'authNoPriv' })).toMatchObject({
      priv_protocol: null,
      priv_passphrase: null,
      auth_passphrase: 'auth-secret',
    });
  });

  it('maps to net-snmp users', () => {
    expect(toNetSnmpUser(full, constants)).toEqual({ name: 'ops', level: 3, authProtocol: 5, authKey: 'auth-secret', privProtocol: 4, privKey: 'priv-secret' });
    expect(toNetSnmpUser({ ...full, auth_protocol: 'SHA-512', priv_protocol: 'AES-256' }, constants)).toMatchObject({ authProtocol: 7, privProtocol: 6 });
    expect(toNetSnmpUser({ ...full, security_level: 'noAuthNoPriv' }, constants)).toEqual({ name: 'ops', level: 1 });
  });
});
