import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, sql, type MigrationProvider } from 'kysely';
import type { Storage } from '../../ports/storage.js';
import type { SecretBox } from '../../ports/secret-box.js';
import { DomainError } from '../../errors/domain-error.js';
import { createKyselyStorage } from '../kysely/kysely-storage.js';
import type { Database } from '../kysely/kysely-schema.js';
import { postgresQuirks } from './postgres-dialect-quirks.js';
import { postgresMigrations } from './postgres-migrations.js';
import { postgresTypes } from './postgres-int8.js';

export interface PostgresStorageOptions {
  /** `postgres://user:password@host:port/database` */
  url: string;
  /** Connections this process keeps at most (10). */
  poolMax?: number;
  /** A statement running longer is cancelled by the server (30000 ms; 0 = no limit). */
  statementTimeoutMs?: number;
  now?: () => string;
  /** Seals SNMP communities at rest; the runtime always passes its SecretBox. */
  secrets?: SecretBox;
}

/** Any fixed number: the replicas of one deployment agree on it, nothing else uses it. */
const migrationLockKey = 0x646d735f6d6967n; // "dms_mig"

const provider: MigrationProvider = { getMigrations: async () => postgresMigrations };

/** Names recorded by a newer dms that this one does not know: its schema is ahead of us. */
async function unknownMigrations(db: Kysely<Database>): Promise<string[]> {
  const table = await sql<{ name: string | null }>`select to_regclass('kysely_migration')::text as name`.execute(db);
  if (!table.rows[0]?.name) return [];
  const rows = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
  return rows.rows.map((row) => row.name).filter((name) => !(name in postgresMigrations));
}

/**
 * Applies pending migrations exactly once however many replicas start together: one
 * session-wide advisory lock around the whole run (Kysely's own lock comes after it
 * creates its tables, which two replicas could otherwise race on).
 */
export async function migratePostgres(db: Kysely<Database>): Promise<void> {
  await db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(${migrationLockKey})`.execute(connection);
    try {
      const unknown = await unknownMigrations(connection);
      if (unknown.length > 0) {
        throw new DomainError(
          'internal',
          `the database schema is newer than this dms (unknown migration ${unknown.join(', ')}): upgrade dms before starting it on this database`,
        );
      }
      const { error, results } = await new Migrator({ db: connection, provider }).migrateToLatest();
      if (error) {
        const failed = results?.find((result) => result.status === 'Error')?.migrationName ?? 'unknown';
        throw new DomainError('internal', `migration ${failed} failed`, { cause: error });
      }
    } finally {
      await sql`select pg_advisory_unlock(${migrationLockKey})`.execute(connection);
    }
  });
}

/**
 * PostgreSQL storage for one or several replicas. The count cache and first-row reader are
 * SQLite's (they rely on one process seeing every write): none here.
 */
export function openPostgresStorage(options: PostgresStorageOptions): Storage {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolMax ?? 10,
    statement_timeout: options.statementTimeoutMs ?? 30_000,
    // An unreachable server fails a request (503) in seconds, not after the OS's TCP timeout.
    connectionTimeoutMillis: 5_000,
    types: postgresTypes,
  });
  // An idle connection the server drops emits 'error' on the pool; unhandled, it ends the process.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return createKyselyStorage({
    db,
    quirks: postgresQuirks,
    // Replicas share the database: a working job may belong to a live replica.
    capabilities: { exclusiveOwner: false },
    migrate: migratePostgres,
    ...(options.now ? { now: options.now } : {}),
    ...(options.secrets ? { secrets: options.secrets } : {}),
  });
}
