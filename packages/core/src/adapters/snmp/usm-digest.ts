import { timingSafeEqual } from 'node:crypto';

/**
 * Whether a message's HMAC digest is the one computed for it, in time that does not depend on
 * where they differ (RFC 3414 §3.2 step 6 through timingSafeEqual): a byte-by-byte comparison that
 * stops at the first difference would let a peer find a valid digest one byte at a time. A length
 * other than the protocol's is refused before comparing (timingSafeEqual throws on it).
 */
export function digestsMatch(computed: Uint8Array, received: Uint8Array): boolean {
  return computed.length === received.length && received.length > 0 && timingSafeEqual(computed, received);
}
