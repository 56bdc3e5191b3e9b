/**
 * User passwords, never stored in clear. The adapter is argon2id (`security/password-hasher.ts`),
 * bounded in concurrency by `security/bounded-hasher.ts`.
 */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** False for a wrong password and for a hash it cannot read; never throws for either. */
  verify(passwordHash: string, password: string): Promise<boolean>;
}
