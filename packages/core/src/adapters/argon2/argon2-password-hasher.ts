import { hash, verify } from '@node-rs/argon2';
import type { PasswordHasher } from '../../ports/password-hasher.js';

/** argon2id, the library's default algorithm. */
export const argon2PasswordHasher: PasswordHasher = {
  hash: (password) => hash(password, { memoryCost: 19_456, timeCost: 2, parallelism: 1 }),
  async verify(passwordHash, password) {
    try {
      return await verify(passwordHash, password);
    } catch {
      return false;
    }
  },
};
