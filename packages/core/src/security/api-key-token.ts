import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits: a fast hash is enough to store it, no key stretching needed. */
export function generateApiKeyToken(): string {
  return `dms_${randomBytes(32).toString('base64url')}`;
}

export function hashApiKeyToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
