import { randomBytes } from 'node:crypto';

/**
 * An snmpEngineID in the RFC 3411 §5 format: the enterprise's private number with its top bit
 * set (the "new" format), format 5 (octets chosen by the administrator), then 8 random octets.
 * The number comes from the enterprise OID (1.3.6.1.4.1.N); another arc uses 0 (reserved).
 * Generated once and persisted: managers localize their keys with it.
 */
export function generateEngineId(enterpriseOid: string, random: (size: number) => Buffer = randomBytes): string {
  const match = /^\.?1\.3\.6\.1\.4\.1\.(\d+)/.exec(enterpriseOid);
  const enterprise = match ? Number(match[1]) % 2 ** 31 : 0;
  const head = Buffer.alloc(5);
  head.writeUInt32BE((enterprise | 0x80000000) >>> 0, 0);
  head[4] = 5;
  return Buffer.concat([head, random(8)]).toString('hex');
}

/** 5 to 32 octets (RFC 3411 SnmpEngineID), in hex. */
export const engineIdPattern = /^(?:[0-9a-f]{2}){5,32}$/;
