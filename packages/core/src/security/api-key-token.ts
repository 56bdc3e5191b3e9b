import { hash, randomBytes } from 'node:crypto';

/** 256 random bits: a fast hash is enough to store it, no key stretching needed. */
export function generateApiKeyToken(): string {
  return `dms_${randomBytes(32).toString('base64url')}`;
}

/** One-shot SHA-256: it runs on every API-key request, where a Hash object costs twice as much. */
export function hashApiKeyToken(token: string): string {
  return hash('sha256', token, 'hex');
}
