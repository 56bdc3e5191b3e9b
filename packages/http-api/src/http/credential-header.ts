import { bearerCredential, passwordCredential, type Credential } from '@dms/core/runtime';

/** Longest Authorization header read: a Basic pair at its bounds or a token fits with room to spare. */
const maxAuthorizationLength = 8192;

const unreadable = (reason: string): Credential => ({ kind: 'unreadable', reason });

/**
 * The Authorization header as the typed credential the core takes: `Basic` as a user's name
 * and password, `Bearer` as a key or token. Anything else (another scheme, bad base64, a
 * pair no user can have) is `unreadable`, which the core refuses and throttles like a wrong
 * password; no header string goes further than this function.
 */
export function credentialFromAuthorization(header: string | undefined): Credential | undefined {
  if (header === undefined) return undefined;
  if (header.length > maxAuthorizationLength) return unreadable('authorization header too long');
  const space = header.indexOf(' ');
  const scheme = header.slice(0, Math.max(0, space)).toLowerCase();
  const value = header.slice(space + 1).trim();
  if (space > 0 && scheme === 'basic') {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon <= 0) return unreadable('malformed Basic credentials');
    return passwordCredential(decoded.slice(0, colon), decoded.slice(colon + 1));
  }
  if (space > 0 && scheme === 'bearer' && value.length > 0) return bearerCredential(value);
  return unreadable('unsupported authorization scheme');
}
