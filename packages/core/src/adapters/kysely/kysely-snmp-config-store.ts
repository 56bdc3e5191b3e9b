import { inTransaction } from './kysely-transaction.js';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { SnmpConfigStore, SnmpEngineBoot } from '../../ports/storage.js';
import { defaultSnmpConfig, type AgentSeed, type SnmpConfig } from '../../domain/snmp-config.js';
import type { V3Security } from '../../domain/snmp-v3-security.js';
import type { Database } from './kysely-schema.js';
import type { DialectQuirks } from './kysely-dialect-quirks.js';
import type { SecretColumn } from './kysely-secret-column.js';
import { definedOnly } from './kysely-store-helpers.js';

const columns = ['version', 'community', 'location', 'contact', 'agent_enabled', 'agent_address', 'agent_port', 'users', 'engine_id'] as const;

type Row = Pick<Database['snmp_server_configuration'], (typeof columns)[number]>;

/**
 * The single configuration row (id 1), created with the defaults on first use. The agent's
 * community and its v3 users (a JSON document holding the passphrases) are sealed in the row
 * and opened here, so the service and the agent see them in clear.
 */
export class KyselySnmpConfigStore implements SnmpConfigStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly quirks: DialectQuirks,
    private readonly now: () => string,
    private readonly communities: SecretColumn,
  ) {}

  async get(): Promise<SnmpConfig> {
    const row = await this.db.selectFrom('snmp_server_configuration').select(columns).where('id', '=', 1).executeTakeFirst();
    return row ? this.#open(row) : { ...defaultSnmpConfig };
  }

  /**
   * One transaction holding the row: two patches of different fields, on any replica, both
   * apply instead of the later one writing back the earlier one's old values.
   */
  async update(patch: Partial<SnmpConfig>): Promise<SnmpConfig> {
    return await this.#locked(async (trx, current) => {
      // engine_id is the engine's own: set once by ensureEngineId, never by a patch.
      const next: SnmpConfig = { ...current, ...definedOnly(patch), engine_id: current.engine_id };
      await trx
        .updateTable('snmp_server_configuration')
        .set({ ...this.#seal(next), updated_at: this.now() })
        .where('id', '=', 1)
        .execute();
      return next;
    });
  }

  async seedAgent(seed: AgentSeed): Promise<void> {
    await this.#locked(async (trx) => {
      await trx
        .updateTable('snmp_server_configuration')
        .set({ agent_enabled: seed.agent_enabled ? 1 : 0, agent_address: seed.agent_address, agent_port: seed.agent_port })
        .where('id', '=', 1)
        .where('agent_enabled', 'is', null)
        .execute();
    });
  }

  async ensureEngineId(generate: () => string): Promise<string> {
    return await this.#locked(async (trx, current) => {
      if (current.engine_id !== null) return current.engine_id;
      const engineId = generate();
      await trx.updateTable('snmp_server_configuration').set({ engine_id: engineId }).where('id', '=', 1).execute();
      return engineId;
    });
  }

  async bootEngine(generate: () => string): Promise<SnmpEngineBoot> {
    const engineId = await this.ensureEngineId(generate);
    return await this.#locked(async (trx) => {
      // RFC 3414 §2.2.2: snmpEngineBoots stays at 2^31 - 1 once it gets there.
      const row = await trx
        .updateTable('snmp_server_configuration')
        .set({ engine_boots: sql<number>`case when engine_boots < 2147483647 then engine_boots + 1 else engine_boots end` })
        .where('id', '=', 1)
        .returning('engine_boots')
        .executeTakeFirstOrThrow();
      return { engineId, boots: Number(row.engine_boots) };
    });
  }

  /** Seals a community that an earlier version stored in clear (unless it changed meanwhile); 1 if it did. */
  async sealLegacyCommunity(): Promise<number> {
    const row = await this.db.selectFrom('snmp_server_configuration').select('community').where('id', '=', 1).executeTakeFirst();
    if (!row || !this.communities.isLegacy(row.community)) return 0;
    await this.db
      .updateTable('snmp_server_configuration')
      .set({ community: this.communities.seal(row.community) })
      .where('id', '=', 1)
      .where('community', '=', row.community)
      .execute();
    return 1;
  }

  /** Runs `work` holding the row, which exists by then (the defaults' row is created first). */
  async #locked<T>(work: (trx: Transaction<Database>, current: SnmpConfig) => Promise<T>): Promise<T> {
    return await inTransaction(this.db, async (trx) => {
      const defaults = { version: defaultSnmpConfig.version, community: this.communities.seal(defaultSnmpConfig.community), location: '', contact: '' };
      await trx
        .insertInto('snmp_server_configuration')
        .values({ id: 1, ...defaults, updated_at: this.now() })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
      const row = await trx
        .selectFrom('snmp_server_configuration')
        .select(columns)
        .where('id', '=', 1)
        .modifyEnd(sql.raw(this.quirks.rowLockClause))
        .executeTakeFirstOrThrow();
      return await work(trx as Transaction<Database>, this.#open(row));
    });
  }

  #open(row: Row): SnmpConfig {
    const users = row.users === null ? [] : (JSON.parse(this.communities.open(row.users)) as V3Security[]);
    return {
      version: row.version as SnmpConfig['version'],
      community: this.communities.open(row.community),
      location: row.location,
      contact: row.contact,
      agent_enabled: row.agent_enabled === null ? defaultSnmpConfig.agent_enabled : Boolean(row.agent_enabled),
      agent_address: row.agent_address ?? defaultSnmpConfig.agent_address,
      agent_port: row.agent_port ?? defaultSnmpConfig.agent_port,
      users,
      engine_id: row.engine_id,
    };
  }

  #seal(config: SnmpConfig) {
    return {
      version: config.version,
      community: this.communities.seal(config.community),
      location: config.location,
      contact: config.contact,
      agent_enabled: config.agent_enabled ? 1 : 0,
      agent_address: config.agent_address,
      agent_port: config.agent_port,
      users: config.users.length === 0 ? null : this.communities.seal(JSON.stringify(config.users)),
    };
  }
}
