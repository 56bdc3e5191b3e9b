import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { DomainError } from '../../errors/domain-error.js';
import type { SecretBox } from '../../ports/secret-box.js';

const prefix = 'v1:';

/** AES-256-GCM; the sealed text is `v1:` + base64(iv ‖ tag ‖ ciphertext). */
export function createAesGcmSecretBox(key: Uint8Array): SecretBox {
  if (key.length !== 32) throw new Error('the secret key must be 32 bytes');
  // A key of its own for digests, derived from the secret key: the cipher's key is used for nothing else.
  const fingerprintKey = Buffer.from(hkdfSync('sha256', key, new Uint8Array(0), 'dms fingerprint v1', 32));
  return {
    fingerprint(text) {
      return createHmac('sha256', fingerprintKey).update(text, 'utf8').digest('base64url');
    },
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return prefix + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
    },
    open(sealed) {
      if (!sealed.startsWith(prefix)) throw new DomainError('internal', 'unknown secret format');
      const raw = Buffer.from(sealed.slice(prefix.length), 'base64');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      try {
        return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
      } catch (error) {
        throw new DomainError('internal', 'a stored secret cannot be opened with the current secret key', { cause: error });
      }
    },
  };
}
