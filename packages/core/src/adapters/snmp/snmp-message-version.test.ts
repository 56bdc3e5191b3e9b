import { describe, expect, it } from 'vitest';
import { snmpMessageVersion } from './snmp-message-version.js';

describe('snmpMessageVersion', () => {
  it('reads the version of short- and long-form messages', () => {
    // SEQUENCE (short length) { INTEGER 1, ... }: v2c
    expect(snmpMessageVersion(Uint8Array.from([0x30, 0x26, 0x02, 0x01, 0x01, 0x04]))).toBe(1);
    // SEQUENCE (long length, 2 octets) { INTEGER 0, ... }: v1
    expect(snmpMessageVersion(Uint8Array.from([0x30, 0x82, 0x01, 0x10, 0x02, 0x01, 0x00, 0x04]))).toBe(0);
    expect(snmpMessageVersion(Uint8Array.from([0x30, 0x81, 0x90, 0x02, 0x01, 0x03]))).toBe(3);
  });

  it('returns undefined for anything that is not an SNMP message', () => {
    expect(snmpMessageVersion(Uint8Array.from([]))).toBeUndefined();
    expect(snmpMessageVersion(Uint8Array.from([0x31, 0x03, 0x02, 0x01, 0x01]))).toBeUndefined();
    expect(snmpMessageVersion(Uint8Array.from([0x30, 0x03, 0x04, 0x01, 0x01]))).toBeUndefined();
    expect(snmpMessageVersion(Uint8Array.from([0x30, 0x03, 0x02, 0x05, 0x01]))).toBeUndefined();
  });
});
