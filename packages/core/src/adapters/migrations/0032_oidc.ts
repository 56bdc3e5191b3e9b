import type { Kysely } from 'kysely';
import type { MigrationDialect, SharedMigration } from './migration-dialect.js';

/**
 * Migration 0032 (issue 46), written once for both dialects: sign-ins waiting for the OpenID
 * provider's answer (any replica finishes them, once), and the provider identities of users
 * (docs/decisions/177-oidc-sign-in.md).
 */
async function up(db: Kysely<unknown>, { timestamp }: MigrationDialect): Promise<void> {
  const { schema } = db;
  await schema
    .createTable('oidc_logins')
    .addColumn('state', 'text', (column) => column.primaryKey())
    .addColumn('code_verifier', 'text', (column) => column.notNull())
    .addColumn('nonce', 'text', (column) => column.notNull())
    .addColumn('redirect_uri', 'text', (column) => column.notNull())
    .addColumn('created_at', timestamp, (column) => column.notNull())
    .addColumn('expires_at', timestamp, (column) => column.notNull())
    .execute();
  await schema.createIndex('oidc_logins_expires_at').on('oidc_logins').column('expires_at').execute();
  await schema
    .createTable('oidc_identities')
    .addColumn('user_id', 'integer', (column) => column.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('issuer', 'text', (column) => column.notNull())
    .addColumn('subject', 'text', (column) => column.notNull())
    .addColumn('role', 'text', (column) => column.notNull())
    .addColumn('created_at', timestamp, (column) => column.notNull())
    .addColumn('signed_in_at', timestamp, (column) => column.notNull())
    .addUniqueConstraint('oidc_identities_issuer_subject', ['issuer', 'subject'])
    .execute();
}

export const oidcTables: SharedMigration = { name: '0032_oidc', up };
