import type { SecretBox } from '../ports/secret-box.js';
import type { NasRecord } from '../ports/storage.js';
import type { Principal } from '../scopes/principal.js';

/**
 * How long after it finished a test of an unsaved share is taken as the new share's first test,
 * when the same principal saves exactly what it tested (docs/decisions/153-test-before-save.md).
 */
export const testAdoptionWindowMs = 10 * 60 * 1000;

/** A share's location and credentials as a test body and a create body both give them. */
export interface TestedConnection {
  path: string;
  options: string | null;
  username: string | null;
  password: string | null;
}

/** Exactly who asked: the user, or the key itself (not its owner: another key of the owner is another principal). */
function principalIdentity(principal: Principal): string {
  return principal.kind === 'user' ? `user:${principal.userId}` : `key:${principal.keyId}`;
}

/**
 * A keyed digest of who tested which location with which credentials: the NAS (id, type, host),
 * the share's path, options, username and password. Stored with the test job, never the
 * password; equal only for the same principal and exactly the same location.
 */
export function testFingerprint(secrets: SecretBox, principal: Principal, nas: Pick<NasRecord, 'id' | 'type' | 'host'>, connection: TestedConnection): string {
  const fields = [principalIdentity(principal), nas.id, nas.type, nas.host, connection.path, connection.options, connection.username, connection.password];
  return secrets.fingerprint(JSON.stringify(fields));
}
