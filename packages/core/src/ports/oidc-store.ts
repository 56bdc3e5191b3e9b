import type { Selectable } from 'kysely';
import type { OidcLoginTable } from '../tables/oidc-logins.table.js';
import type { OidcIdentityTable } from '../tables/oidc-identities.table.js';

export type OidcLoginRecord = Selectable<OidcLoginTable>;
export type OidcIdentityRecord = Selectable<OidcIdentityTable>;

/**
 * Sign-ins through an OpenID provider (docs/decisions/177-oidc-sign-in.md): the logins waiting
 * for the provider's answer, and which dms user each provider identity is.
 */
export interface OidcStore {
  savePending(login: OidcLoginRecord): Promise<void>;
  /**
   * Deletes and resolves the pending login of `state` if it has not expired at `now`: one
   * statement, so of two callbacks with one state (on any replica) exactly one gets it.
   */
  takePending(state: string, now: string): Promise<OidcLoginRecord | undefined>;
  /** Deletes pending logins that expired before `now`; resolves how many. */
  purgeExpired(now: string): Promise<number>;
  findIdentity(issuer: string, subject: string): Promise<OidcIdentityRecord | undefined>;
  findIdentityOfUser(userId: number): Promise<OidcIdentityRecord | undefined>;
  saveIdentity(identity: OidcIdentityRecord): Promise<void>;
  /** Records a sign-in: its time and the role the provider's claim mapped to. */
  touchIdentity(userId: number, role: string, at: string): Promise<void>;
}
