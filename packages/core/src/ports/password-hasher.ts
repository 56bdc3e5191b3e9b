/**
 * User passwords, never stored in clear. The adapter is argon2id (`adapters/argon2/argon2-password-hasher.ts`),
 * bounded in concurrency by `security/bounded-hasher.ts`.
 */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /**
   * False for a wrong password and for a hash it cannot read; never throws for either.
   * `lane` says whose check it is, for a hasher that shares its capacity fairly.
   */
  verify(passwordHash: string, password: string, lane?: VerifyLane): Promise<boolean>;
}

export interface VerifyLane {
  /** The client's address: waiting checks are served in turn across addresses. */
  address?: string | undefined;
  /** This very credential verified before: it may use the capacity kept for known users. */
  known?: boolean;
}
