import type { PasswordHasher } from '../../ports/password-hasher.js';

let loading: Promise<PasswordHasher> | undefined;

/** The argon2 adapter, loaded at the first hash or check, so wiring the core loads no native module. */
function argon2(): Promise<PasswordHasher> {
  return (loading ??= import('./argon2-password-hasher.js').then((module) => module.argon2PasswordHasher));
}

/** `argon2PasswordHasher`, loaded when first used: the core's default hasher. */
export const lazyArgon2PasswordHasher: PasswordHasher = {
  hash: async (password) => (await argon2()).hash(password),
  verify: async (passwordHash, password, lane) => (await argon2()).verify(passwordHash, password, lane),
};
