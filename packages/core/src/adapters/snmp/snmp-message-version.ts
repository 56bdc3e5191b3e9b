/**
 * msgVersion of a community-based SNMP message (0 = v1, 1 = v2c, 3 = v3), read from the
 * first bytes of the BER: SEQUENCE { version INTEGER, ... }. The agent drops messages of
 * any other version than the configured one before net-snmp parses them, the way a
 * manager using the wrong version gets no answer from a real agent. undefined when the
 * datagram is not an SNMP message.
 */
export function snmpMessageVersion(datagram: Uint8Array): number | undefined {
  if (datagram[0] !== 0x30) return undefined;
  let offset = 1;
  const first = datagram[offset++];
  if (first === undefined) return undefined;
  // long-form length: the low bits count the length octets that follow
  if (first & 0x80) offset += first & 0x7f;
  if (datagram[offset++] !== 0x02) return undefined;
  const length = datagram[offset++];
  if (length === undefined || length < 1 || length > 4 || offset + length > datagram.length) return undefined;
  let version = 0;
  for (let i = 0; i < length; i++) version = version * 256 + (datagram[offset + i] ?? 0);
  return version;
}
