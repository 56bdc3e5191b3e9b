import { sql, type Kysely } from 'kysely';
import type { MigrationDialect, SharedMigration } from './migration-dialect.js';

/**
 * Migration 0031 (issue 46), written once for both dialects: custom roles, a user's role and a
 * key's role (docs/decisions/176-roles.md). Admins become role `admin`; every other user, who
 * had full access to resources, becomes `operator`, the built-in closest to it.
 */
async function up(db: Kysely<unknown>, { identity, timestamp }: MigrationDialect): Promise<void> {
  await db.schema
    .createTable('roles')
    .addColumn('id', 'integer', identity)
    .addColumn('name', 'text', (column) => column.notNull().unique())
    .addColumn('description', 'text')
    .addColumn('scopes', 'text', (column) => column.notNull())
    .addColumn('created_at', timestamp, (column) => column.notNull())
    .addColumn('updated_at', timestamp, (column) => column.notNull())
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('role', 'text', (column) => column.notNull().defaultTo('operator'))
    .execute();
  await sql`update users set role = 'admin' where admin = 1`.execute(db);
  await db.schema.createIndex('users_role').on('users').column('role').execute();
  await db.schema.alterTable('api_keys').addColumn('role', 'text').execute();
  await db.schema.createIndex('api_keys_role').on('api_keys').column('role').execute();
}

export const roles: SharedMigration = { name: '0031_roles', up };
