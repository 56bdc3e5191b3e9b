import { randomBytes } from 'node:crypto';

/**
 * What a user who signs in through an OpenID provider has in place of a password hash: no
 * password verifies against it (an argon2 hash starts with `$argon2`), and it is random, so the
 * token and session versions derived from it stay distinct per user (docs/decisions/177-oidc-sign-in.md).
 */
const marker = '!oidc:';

export function noPasswordHash(): string {
  return `${marker}${randomBytes(12).toString('base64url')}`;
}

export function hasNoPassword(passwordHash: string): boolean {
  return passwordHash.startsWith(marker);
}
