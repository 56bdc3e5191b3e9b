import type { SharedMigration } from './migration-dialect.js';

/** Users may be disabled: 0 or 1, as `admin` is. */
const disabledColumn: SharedMigration['up'] = async (db) => {
  await db.schema
    .alterTable('users')
    .addColumn('disabled', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
};

/** One row per user from enrollment on; its secret sealed, its recovery codes as keyed digests. */
const userTotpTable: SharedMigration['up'] = async (db, { timestamp }) => {
  await db.schema
    .createTable('user_totp')
    .addColumn('user_id', 'integer', (column) => column.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('secret', 'text', (column) => column.notNull())
    .addColumn('enabled', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('last_step', 'bigint')
    .addColumn('recovery_codes', 'text', (column) => column.notNull())
    .addColumn('created_at', timestamp, (column) => column.notNull())
    .execute();
};

/** The sessions a token names, looked up by id at every request. */
const sessionsTable: SharedMigration['up'] = async (db, { timestamp }) => {
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
};

/**
 * Migration 0033 (issue 46), written once for both dialects: a user's TOTP second factor, the
 * signed-in sessions a token names, and the users' `disabled` flag
 * (docs/decisions/178-totp-second-factor.md, docs/decisions/179-sessions.md).
 */
export const totpSessions: SharedMigration = {
  name: '0033_totp_sessions',
  async up(db, dialect) {
    for (const step of [disabledColumn, userTotpTable, sessionsTable]) await step(db, dialect);
  },
};
