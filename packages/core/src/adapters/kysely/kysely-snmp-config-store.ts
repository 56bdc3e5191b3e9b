import { inTransaction } from './kysely-transaction.js';
import { sql, type Kysely } from 'kysely';
import type { SnmpConfigStore } from '../../ports/storage.js';
import { defaultSnmpConfig, type SnmpConfig } from '../../domain/snmp-config.js';
import type { Database } from './kysely-schema.js';
import type { DialectQuirks } from './kysely-dialect-quirks.js';
import type { SecretColumn } from './kysely-secret-column.js';
import { definedOnly } from './kysely-store-helpers.js';

const columns = ['version', 'community', 'location', 'contact'] as const;

/**
 * The single configuration row (id 1), created with the defaults on first use. The agent's
 * community is sealed in the row and opened here, so the service and the agent see it in clear.
 */
export class KyselySnmpConfigStore implements SnmpConfigStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly quirks: DialectQuirks,
    private readonly now: () => string,
    private readonly communities: SecretColumn,
  ) {}

  async get(): Promise<SnmpConfig> {
    const row = (await this.#stored()) as SnmpConfig | undefined;
    return row ? { ...row, community: this.communities.open(row.community) } : { ...defaultSnmpConfig };
  }

  /**
   * One transaction holding the row: two patches of different fields, on any replica, both
   * apply instead of the later one writing back the earlier one's old values.
   */
  async update(patch: Partial<SnmpConfig>): Promise<SnmpConfig> {
    return await inTransaction(this.db, async (trx) => {
      // The defaults' row first, so that there is always a row to lock.
      const defaults = { ...defaultSnmpConfig, community: this.communities.seal(defaultSnmpConfig.community) };
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
      const next: SnmpConfig = { ...(row as SnmpConfig), community: this.communities.open(row.community), ...definedOnly(patch) };
      const stored = { ...next, community: this.communities.seal(next.community) };
      await trx
        .updateTable('snmp_server_configuration')
        .set({ ...stored, updated_at: this.now() })
        .where('id', '=', 1)
        .execute();
      return next;
    });
  }

  /** Seals a community that an earlier version stored in clear (unless it changed meanwhile); 1 if it did. */
  async sealLegacyCommunity(): Promise<number> {
    const row = await this.#stored();
    if (!row || !this.communities.isLegacy(row.community)) return 0;
    await this.db
      .updateTable('snmp_server_configuration')
      .set({ community: this.communities.seal(row.community) })
      .where('id', '=', 1)
      .where('community', '=', row.community)
      .execute();
    return 1;
  }

  #stored() {
    return this.db.selectFrom('snmp_server_configuration').select(columns).where('id', '=', 1).executeTakeFirst();
  }
}
