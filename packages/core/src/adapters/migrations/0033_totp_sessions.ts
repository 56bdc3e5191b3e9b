import type { Kysely } from 'kysely';
import type { MigrationDialect, SharedMigration } from './migration-dialect.js';

/**
 * Migration 0033 (issue 46), written once for both dialects: a user's TOTP second factor, the
 * signed-in sessions a token names, and the users' `disabled` flag
 * (docs/decisions/178-totp-second-factor.md, docs/decisions/179-sessions.md).
 */
async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  const { timestamp } = dialect;
  await db.schema
    .alterTable('users')
    .addColumn('disabled', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('user_totp')
    .addColumn('user_id', 'integer', (column) => column.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('secret', 'text', (column) => column.notNull())
    .addColumn('enabled', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('last_step', 'bigint')
    .addColumn('recovery_codes', 'text', (column) => column.notNull())
    .addColumn('created_at', timestamp, (column) => column.notNull())
    .execute();
  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('user_id', 'integer', (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', timestamp, (column) => column.notNull())
    .addColumn('last_used_at', timestamp, (column) => column.notNull())
    .addColumn('expires_at', timestamp, (column) => column.notNull())
    .addColumn('user_agent', 'text')
    .addColumn('ip', 'text')
    .execute();
  await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();
  await db.schema.createIndex('sessions_expires_at').on('sessions').column('expires_at').execute();
}

export const totpSessions: SharedMigration = { name: '0033_totp_sessions', up };
