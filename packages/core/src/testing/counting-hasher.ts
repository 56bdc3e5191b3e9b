import { argon2PasswordHasher } from '../adapters/argon2/argon2-password-hasher.js';
import type { PasswordHasher } from '../ports/password-hasher.js';

/** The real argon2 hasher, counting its password checks: shows which requests cost one. */
export function countingHasher(): PasswordHasher & { verifications: number } {
  const counted = {
    verifications: 0,
    hash: (password: string) => argon2PasswordHasher.hash(password),
    verify: (passwordHash: string, password: string) => {
      counted.verifications += 1;
      return argon2PasswordHasher.verify(passwordHash, password);
    },
  };
  return counted;
}
