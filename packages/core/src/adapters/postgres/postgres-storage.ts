import pg from 'pg';
import { createResilientPool } from './pg-pool.js';
import { Kysely, Migrator, PostgresDialect, sql, type Driver, type MigrationProvider } from 'kysely';
import type { Storage } from '../../ports/storage.js';
import type { SecretBox } from '../../ports/secret-box.js';
import { DomainError } from '../../errors/domain-error.js';
import { postgresDefaults } from '../../defaults.js';
import { createKyselyStorage } from '../kysely/kysely-storage.js';
import { RollbackKeepsErrorDriver } from '../kysely/rollback-keeps-error.js';
import type { ArrayRowsReader, FirstRowReader } from '../kysely/kysely-prepared.js';
import { createListCache } from '../kysely/kysely-list-cache.js';
import type { Database } from '../kysely/kysely-schema.js';
import { postgresQuirks } from './postgres-dialect-quirks.js';
import { postgresMigrations } from './postgres-migrations.js';
import { postgresTypes } from './postgres-int8.js';
import { postgresListTimeBound } from './postgres-list-time-bound.js';
import { migrationNameOrder } from '../migrations/migration-name-order.js';

export interface PostgresStorageOptions {
  /** `postgres://user:password@host:port/database` */
  url: string;
  /** Connections this process keeps at most (10). */
  poolMax?: number;
  /** A statement running longer is cancelled by the server (30000 ms; 0 = no limit). */
  statementTimeoutMs?: number;
  /** A statement of a list whose filters scan is cancelled past this (postgres-list-time-bound.ts, 1000 ms). */
  listStatementTimeoutMs?: number;
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
      const { error, results } = await new Migrator({ db: connection, provider, nameComparator: migrationNameOrder }).migrateToLatest();
      if (error) {
        const failed = results?.find((result) => result.status === 'Error')?.migrationName ?? 'unknown';
        throw new DomainError('internal', `migration ${failed} failed`, { cause: error });
      }
    } finally {
      await sql`select pg_advisory_unlock(${migrationLockKey})`.execute(connection);
    }
  });
}

const firstRow = (result: pg.QueryResult) => result.rows[0];

/** Kysely's PostgreSQL dialect whose failed ROLLBACK (a connection cut mid-transaction) never hides the error before it. */
class KeepErrorPostgresDialect extends PostgresDialect {
  override createDriver(): Driver {
    return new RollbackKeepsErrorDriver(super.createDriver());
  }
}

/**
 * Hot one-row statements (a share by id, a key by hash, the job claim) as named prepared
 * statements: the server parses and plans each SQL text once per connection instead of on
 * every call (the claim's plan took longer than its run), and the call skips Kysely's
 * executor. Answers the row's promise.
 */
function postgresNamedStatements(pool: pg.Pool): FirstRowReader {
  let statements = 0;
  return (text) => {
    const name = `dms_statement_${++statements}`;
    return (parameters) => pool.query({ name, text, values: [...parameters] }).then(firstRow);
  };
}

/** Reads of many rows as named statements answering arrays (`rowMode: 'array'`): no object a row. */
function postgresArrayRows(pool: pg.Pool): ArrayRowsReader {
  let statements = 0;
  return (text) => {
    const name = `dms_rows_${++statements}`;
    return (parameters) => pool.query<unknown[]>({ name, text, values: [...parameters], rowMode: 'array' }).then((result) => result.rows);
  };
}

/**
 * PostgreSQL storage for one or several replicas. Share list counts are cached against a
 * version every writing transaction bumps (not SQLite's in-process write tracking, which
 * replicas would not share).
 */
export function openPostgresStorage(options: PostgresStorageOptions): Storage {
  const pool = createResilientPool({
    connectionString: options.url,
    max: options.poolMax ?? postgresDefaults.poolMax,
    statement_timeout: options.statementTimeoutMs ?? postgresDefaults.statementTimeoutMs,
    // An unreachable server fails a request (503) in seconds, not after the OS's TCP timeout.
    connectionTimeoutMillis: 5_000,
    types: postgresTypes,
  });
  const db = new Kysely<Database>({ dialect: new KeepErrorPostgresDialect({ pool }) });
  const namedStatements = postgresNamedStatements(pool);
  // Moved by every write to nas_shares (migrations 0007, 0013: the sum of the slots the writing
  // sessions bump): share list counts are cached against it.
  const readShareListVersion = namedStatements(`select sum(version)::text as version from list_versions where table_name = 'nas_shares'`);
  return createKyselyStorage({
    db,
    quirks: { ...postgresQuirks, listTimeBound: postgresListTimeBound(options.listStatementTimeoutMs) },
    // Replicas share the database: a working job may belong to a live replica.
    capabilities: { exclusiveOwner: false },
    migrate: migratePostgres,
    firstRowReader: namedStatements,
    arrayRowsReader: postgresArrayRows(pool),
    listCache: createListCache(async () => {
      const row = (await readShareListVersion([])) as { version: string } | undefined;
      return row?.version ?? '';
    }),
    writeStatementRunner: namedStatements,
    ...(options.now ? { now: options.now } : {}),
    ...(options.secrets ? { secrets: options.secrets } : {}),
  });
}
