import type { Kysely } from 'kysely';
import type { OidcIdentityRecord, OidcLoginRecord, OidcStore } from '../../ports/oidc-store.js';
import type { Database } from './kysely-schema.js';
import { oidcIdentityColumns } from '../../tables/oidc-identities.table.js';

const loginColumns = ['state', 'code_verifier', 'nonce', 'redirect_uri', 'created_at', 'expires_at'] as const;

export class KyselyOidcStore implements OidcStore {
  constructor(private readonly db: Kysely<Database>) {}

  async savePending(login: OidcLoginRecord): Promise<void> {
    await this.db.insertInto('oidc_logins').values(login).execute();
  }

  async takePending(state: string, now: string): Promise<OidcLoginRecord | undefined> {
    // DELETE ... RETURNING: the row goes to the one statement that deletes it, whichever replica.
    const row = await this.db.deleteFrom('oidc_logins').where('state', '=', state).returning(loginColumns).executeTakeFirst();
    return row && row.expires_at > now ? row : undefined;
  }

  async purgeExpired(now: string): Promise<number> {
    const result = await this.db.deleteFrom('oidc_logins').where('expires_at', '<=', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  findIdentity(issuer: string, subject: string): Promise<OidcIdentityRecord | undefined> {
    return this.db.selectFrom('oidc_identities').select(oidcIdentityColumns).where('issuer', '=', issuer).where('subject', '=', subject).executeTakeFirst();
  }

  findIdentityOfUser(userId: number): Promise<OidcIdentityRecord | undefined> {
    return this.db.selectFrom('oidc_identities').select(oidcIdentityColumns).where('user_id', '=', userId).executeTakeFirst();
  }

  async saveIdentity(identity: OidcIdentityRecord): Promise<void> {
    await this.db.insertInto('oidc_identities').values(identity).execute();
  }

  async touchIdentity(userId: number, role: string, at: string): Promise<void> {
    await this.db.updateTable('oidc_identities').set({ role, signed_in_at: at }).where('user_id', '=', userId).execute();
  }
}
