/**
 * What one request may make the agent do. Net-SNMP's snmpd bounds the same things (a GetBulk
 * answers at most 100 varbinds by default, `maxGetbulkResponses`; an OID has at most 128
 * sub-identifiers, `MAX_OID_LEN`; a response must fit its maximum message size, else a GetBulk
 * is cut and anything else answers tooBig); dms cannot configure them away.
 */
export interface SnmpRequestLimits {
  /**
   * Largest datagram read and largest response sent: 1472 octets, the UDP payload of an
   * Ethernet frame, which RFC 3417 §3.2 recommends every SNMP entity to accept.
   */
  maxMessageOctets: number;
  /** Most varbinds in one request, and in one response (a GetBulk is cut there). */
  maxVarbinds: number;
  /** Most sub-identifiers of one OID (RFC 2578 §3.5). */
  maxOidLength: number;
}

export const defaultSnmpRequestLimits: SnmpRequestLimits = { maxMessageOctets: 1472, maxVarbinds: 100, maxOidLength: 128 };

/** Sub-identifiers of a dotted OID, counted without splitting it (a long one is refused unread). */
export function oidLength(oid: string): number {
  let dots = 0;
  for (let i = 0; i < oid.length; i++) if (oid.charCodeAt(i) === 46) dots++;
  const leading = oid.startsWith('.') ? 1 : 0;
  return oid.length === 0 ? 0 : dots + 1 - leading;
}

export interface BulkShape {
  /** N of RFC 3416 §4.2.3: the first N varbinds are asked once, as in a GetNext. */
  nonRepeaters: number;
  /** R: how many successors of each of the other varbinds, at most. */
  maxRepetitions: number;
}

/**
 * RFC 3416 §4.2.3: N = max(min(non-repeaters, varbinds), 0), R = max(max-repetitions, 0),
 * and the answer of N + M·R varbinds is then cut to `maxVarbinds` (a negative or 2^31 field
 * is a number like any other here, never a loop bound).
 */
export function bulkShape(nonRepeaters: number, maxRepetitions: number, varbinds: number, maxVarbinds: number): BulkShape {
  const n = Math.max(0, Math.min(Number.isInteger(nonRepeaters) ? nonRepeaters : 0, varbinds, maxVarbinds));
  const r = Math.max(0, Math.min(Number.isInteger(maxRepetitions) ? maxRepetitions : 0, maxVarbinds));
  return { nonRepeaters: n, maxRepetitions: r };
}
