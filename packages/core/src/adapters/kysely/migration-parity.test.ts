import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateSqlite } from '../sqlite/sqlite-storage.js';
import { migratePostgres } from '../postgres/postgres-storage.js';
import { createTestDatabase, postgresUnreachable, type TestDatabase } from '../../testing/postgres-test-database.js';
import type { Database } from './kysely-schema.js';
import { alertColumns } from '../../tables/alerts.table.js';
import { apiKeyColumns } from '../../tables/api-keys.table.js';
import { auditEventColumns } from '../../tables/audit-events.table.js';
import { corsRuleColumns } from '../../tables/cors-rules.table.js';
import { jobColumns } from '../../tables/jobs.table.js';
import { nasShareColumns } from '../../tables/nas-shares.table.js';
import { nasColumns } from '../../tables/nas.table.js';
import { poolColumns } from '../../tables/pools.table.js';
import { scheduleRunColumns } from '../../tables/schedule-runs.table.js';
import { scheduleColumns } from '../../tables/schedules.table.js';
import { shareScanColumns } from '../../tables/share-scans.table.js';
import { snmpTrapColumns } from '../../tables/snmp-traps.table.js';
import { userColumns } from '../../tables/users.table.js';

/**
 * The two migration lists were written twice, as raw SQL per dialect (docs/decisions/011-migrations-on-both-dialects.md):
 * this holds that both end with the same tables, columns (name and nullability) and index names,
 * apart from the differences listed here, each with its reason.
 */
const onlyOn = {
  // PostgreSQL's list counts are cached per replica and checked against a version every writer
  // bumps (0007, 0013); SQLite's cache sees its own writes in process.
  postgres: { tables: ['list_versions'], indexes: [] as string[] },
  // SQLite's write probe (0007) is how /readyz learns a write would fail on a full disk or a lock
  // held elsewhere; PostgreSQL's readiness asks the server.
  sqlite: { tables: ['write_probe'], indexes: [] as string[] },
};

interface Schema {
  tables: Map<string, string[]>;
  indexes: string[];
}

/** The columns each store reads, from its table's declaration (packages/core/src/tables). */
const storeColumns: { [Table in keyof Database]?: readonly string[] } = {
  alerts: alertColumns,
  api_keys: apiKeyColumns,
  audit_events: auditEventColumns,
  cors_rules: corsRuleColumns,
  jobs: jobColumns,
  nas_shares: nasShareColumns,
  nas: nasColumns,
  pools: poolColumns,
  schedule_runs: scheduleRunColumns,
  schedules: scheduleColumns,
  share_scans: shareScanColumns,
  snmp_traps: snmpTrapColumns,
  users: userColumns,
};

const migrationTable = (name: string) => name.startsWith('kysely_migration');

async function sqliteSchema(): Promise<Schema> {
  const database = new BetterSqlite3(':memory:');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  try {
    await migrateSqlite(db);
    const tables = new Map<string, string[]>();
    const names = database.prepare(`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`).pluck().all() as string[];
    for (const table of names.filter((name) => !migrationTable(name))) {
      const columns = database.prepare(`select name, "notnull" as not_null, pk from pragma_table_info(?) order by name`).all(table) as {
        name: string;
        not_null: number;
        pk: number;
      }[];
      // A primary key is never null on either side, whatever SQLite's pragma says of an integer key.
      tables.set(
        table,
        columns.map((column) => `${column.name}${column.not_null || column.pk ? ' not null' : ''}`),
      );
    }
    const indexes = database.prepare(`select name from sqlite_master where type = 'index' and sql is not null order by name`).pluck().all() as string[];
    return { tables, indexes };
  } finally {
    await db.destroy();
  }
}

async function postgresSchema(url: string): Promise<Schema> {
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }) });
  try {
    await migratePostgres(db);
  } finally {
    await db.destroy();
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const columns = await client.query<{ table_name: string; column_name: string; is_nullable: string }>(
      `select table_name, column_name, is_nullable from information_schema.columns where table_schema = 'public' order by table_name, column_name`,
    );
    const tables = new Map<string, string[]>();
    for (const row of columns.rows.filter((column) => !migrationTable(column.table_name))) {
      const list = tables.get(row.table_name) ?? [];
      list.push(`${row.column_name}${row.is_nullable === 'NO' ? ' not null' : ''}`);
      tables.set(row.table_name, list);
    }
    // Indexes created by name: not those behind a primary key or a unique constraint (SQLite's are unnamed autoindexes).
    const indexes = await client.query<{ indexname: string }>(
      `select indexname from pg_indexes where schemaname = 'public'
         and indexname not in (select conname from pg_constraint where contype in ('p', 'u'))
       order by indexname`,
    );
    return { tables, indexes: indexes.rows.map((row) => row.indexname).filter((name) => !migrationTable(name)) };
  } finally {
    await client.end();
  }
}

const without = (names: Iterable<string>, excluded: readonly string[]) => [...names].filter((name) => !excluded.includes(name)).sort();

const unreachable = await postgresUnreachable();
if (unreachable && process.env['CI'] === 'true') throw new Error(`CI compares the migrations with PostgreSQL, but ${unreachable}`);
if (unreachable) console.log(`[skip] migration parity: ${unreachable}`);

describe.skipIf(Boolean(unreachable))('both migration lists end with the same schema', () => {
  let database: TestDatabase;
  let sqlite: Schema;
  let postgres: Schema;

  beforeAll(async () => {
    database = await createTestDatabase();
    [sqlite, postgres] = await Promise.all([sqliteSchema(), postgresSchema(database.url)]);
  });
  afterAll(() => database?.drop());

  it('has the same tables, apart from the listed ones', () => {
    expect(without(sqlite.tables.keys(), onlyOn.sqlite.tables)).toEqual(without(postgres.tables.keys(), onlyOn.postgres.tables));
  });

  it('gives each table the same columns, with the same nullability', () => {
    const differing = without(sqlite.tables.keys(), onlyOn.sqlite.tables)
      .map((table) => ({ table, sqlite: sqlite.tables.get(table), postgres: postgres.tables.get(table) }))
      .filter((row) => JSON.stringify(row.sqlite) !== JSON.stringify(row.postgres));
    expect(differing).toEqual([]);
  });

  it('names the same indexes, apart from the listed ones', () => {
    expect(without(sqlite.indexes, onlyOn.sqlite.indexes)).toEqual(without(postgres.indexes, onlyOn.postgres.indexes));
  });

  it('issue 41, each table once: every column a store reads, as its table declares it, exists in both migrated schemas', () => {
    const missing = Object.entries(storeColumns).flatMap(([table, columns]) =>
      columns!.flatMap((column) =>
        [sqlite, postgres]
          .filter((schema) => !schema.tables.get(table)?.some((entry) => entry.split(' ')[0] === column))
          .map((schema) => `${schema === sqlite ? 'sqlite' : 'postgres'} ${table}.${column}`),
      ),
    );
    expect(missing).toEqual([]);
  });
});
