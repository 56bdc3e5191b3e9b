import { hash, verify } from '@node-rs/argon2';

/** User passwords: argon2id (the library's default algorithm), never stored in clear. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(passwordHash: string, password: string): Promise<boolean>;
}

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
