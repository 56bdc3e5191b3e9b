import { sql, type Kysely, type Migration } from 'kysely';
import { jobHistoryAndAuditStatements } from '../kysely/kysely-history-schema.js';
import { watchStatements } from '../kysely/kysely-watch-schema.js';
import { scheduleRunStatements } from '../kysely/kysely-schedule-runs-schema.js';
import { snmpV3TrapTargetStatements } from '../kysely/kysely-snmp-v3-schema.js';
import { snmpV3AgentStatements } from '../kysely/kysely-snmp-agent-schema.js';
import { caseInsensitiveNameStatements } from '../kysely/kysely-name-ci-schema.js';
import { sqliteCapacityDialect, capacityOverridesMigration, shareCapacityMigration } from '../kysely/kysely-capacity-schema.js';

/** Versioned, append-only: a released migration is never edited, a new one is added. */
export const sqliteMigrations: Record<string, Migration> = {
  '0001_foundation': {
    async up(db: Kysely<unknown>) {
      const statements = [
        `create table nas (
          id integer primary key autoincrement,
          name text not null unique,
          host text not null,
          type text not null,
          comment text,
          price text,
          created_at text not null,
          updated_at text not null)`,
        `create table pools (
          id integer primary key autoincrement,
          name text not null unique,
          comment text,
          type text not null,
          content text not null,
          primary_id integer references pools(id) on delete set null,
          created_at text not null,
          updated_at text not null)`,
        `create table nas_shares (
          id integer primary key autoincrement,
          nas_id integer not null references nas(id) on delete restrict,
          pool_id integer references pools(id) on delete set null,
          name text not null,
          path text not null,
          options text,
          username text,
          password_enc text,
          file_count integer not null default 0,
          file_size_sum integer not null default 0,
          created_at text not null,
          updated_at text not null,
          unique (nas_id, name))`,
        `create index nas_shares_name on nas_shares (name)`,
        `create index nas_shares_pool_id on nas_shares (pool_id, name)`,
        `create table snmp_traps (
          id integer primary key autoincrement,
          activation integer not null,
          version text not null,
          manager text not null,
          community text not null,
          severity_low integer not null,
          severity_high integer not null,
          created_at text not null,
          updated_at text not null)`,
        `create table snmp_server_configuration (
          id integer primary key check (id = 1),
          version text not null,
          community text not null,
          location text not null,
          contact text not null,
          updated_at text not null)`,
        `create table users (
          id integer primary key autoincrement,
          username text not null unique,
          password_hash text not null,
          admin integer not null default 0,
          created_at text not null)`,
        `create table api_keys (
          id integer primary key autoincrement,
          name text not null,
          key_hash text not null unique,
          key_last4 text not null,
          scopes text not null,
          created_at text not null,
          expires_at text,
          last_used_at text)`,
        `create table settings (key text primary key, value text not null)`,
        `create table jobs (
          id text primary key,
          kind text not null,
          status text not null,
          nas_id integer,
          share_id integer,
          progress integer not null default 0,
          total integer not null default 0,
          message text,
          steps text not null default '[]',
          payload_enc text,
          result text,
          worker_id text,
          heartbeat_at text,
          created_at text not null,
          started_at text,
          finished_at text)`,
        `create index jobs_queue on jobs (status, created_at)`,
        `create index jobs_finished on jobs (finished_at)`,
      ];
      for (const statement of statements) await sql.raw(statement).execute(db);
    },
  },
  '0002_access_control': {
    async up(db: Kysely<unknown>) {
      await sql
        .raw(
          `create table cors_rules (
          id integer primary key autoincrement,
          origins text not null,
          path text not null,
          methods text not null,
          created_at text not null,
          updated_at text not null)`,
        )
        .execute(db);
    },
  },
  '0003_share_name_order_index': {
    async up(db: Kysely<unknown>) {
      // With nas_shares_name (name, then rowid) this serves all four orders of name and id
      // from an index: read forwards or backwards, one index gives each mixed direction.
      await sql.raw('create index nas_shares_name_id_desc on nas_shares (name, id desc)').execute(db);
    },
  },
  '0004_api_key_lineage': {
    async up(db: Kysely<unknown>) {
      // Keys from before this migration have no recorded creator and count as the system's.
      await sql.raw('alter table api_keys add column owner_user_id integer references users(id) on delete cascade').execute(db);
      await sql.raw('alter table api_keys add column parent_key_id integer references api_keys(id) on delete cascade').execute(db);
      await sql.raw('create index api_keys_owner on api_keys (owner_user_id)').execute(db);
      await sql.raw('create index api_keys_parent on api_keys (parent_key_id)').execute(db);
    },
  },
  '0005_job_requester': {
    async up(db: Kysely<unknown>) {
      await sql.raw(`alter table jobs add column requested_by text not null default 'system'`).execute(db);
      // Queued jobs grouped by requester, and one requester's working jobs, from one index.
      await sql.raw('create index jobs_requester on jobs (status, requested_by, created_at)').execute(db);
    },
  },
  '0006_job_claim_order': {
    async up(db: Kysely<unknown>) {
      // The claim takes a requester's oldest job by (created_at, id): with id in the index the
      // first entry is the one, where before every queued job of the requester was read and sorted.
      await sql.raw('drop index jobs_requester').execute(db);
      await sql.raw('create index jobs_requester on jobs (status, requested_by, created_at, id)').execute(db);
    },
  },
  '0007_write_probe': {
    async up(db: Kysely<unknown>) {
      // One row /readyz rewrites: ready means a write reaches the file now, not only a read.
      await sql.raw('create table write_probe (id integer primary key check (id = 1), at text not null)').execute(db);
    },
  },
  '0008_job_history_and_audit': {
    async up(db: Kysely<unknown>) {
      await run(db, jobHistoryAndAuditStatements('integer primary key autoincrement', 'text'));
    },
  },
  '0009_keep_watch': {
    async up(db: Kysely<unknown>) {
      await run(db, watchStatements('integer primary key autoincrement', 'text'));
    },
  },
  '0010_snmp_v3_trap_targets': {
    async up(db: Kysely<unknown>) {
      await run(db, snmpV3TrapTargetStatements('text'));
    },
  },
  '0011_snmp_v3_agent': {
    async up(db: Kysely<unknown>) {
      await run(db, snmpV3AgentStatements());
    },
  },
  '0012_case_insensitive_names': {
    async up(db: Kysely<unknown>) {
      await run(db, caseInsensitiveNameStatements);
    },
  },
  '0014_schedule_runs': {
    async up(db: Kysely<unknown>) {
      await run(db, scheduleRunStatements('integer primary key autoincrement', 'text'));
    },
  },
  '0021_share_capacity': {
    async up(db: Kysely<unknown>) {
      await shareCapacityMigration(db, sqliteCapacityDialect);
    },
  },
  '0022_capacity_overrides': {
    async up(db: Kysely<unknown>) {
      await capacityOverridesMigration(db);
    },
  },
};

async function run(db: Kysely<unknown>, statements: readonly string[]): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
