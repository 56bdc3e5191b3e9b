import type { Kysely } from 'kysely';
import type { SnmpConfigStore } from '../../ports/storage.js';
import { defaultSnmpConfig, type SnmpConfig } from '../../domain/snmp-config.js';
import type { Database } from './kysely-schema.js';
import type { SecretColumn } from './kysely-storage.js';
import { definedOnly } from './kysely-store-helpers.js';

const columns = ['version', 'community', 'location', 'contact'] as const;

/**
 * The single configuration row (id 1), created with the defaults on first use. The agent's
 * community is sealed in the row and opened here, so the service and the agent see it in clear.
 */
export class KyselySnmpConfigStore implements SnmpConfigStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => string,
    private readonly communities: SecretColumn,
  ) {}

  async get(): Promise<SnmpConfig> {
    const row = (await this.#stored()) as SnmpConfig | undefined;
    return row ? { ...row, community: this.communities.open(row.community) } : { ...defaultSnmpConfig };
  }

  async update(patch: Partial<SnmpConfig>): Promise<SnmpConfig> {
    const next = { ...(await this.get()), ...definedOnly(patch) };
    const stored = { ...next, community: this.communities.seal(next.community) };
    await this.db
      .insertInto('snmp_server_configuration')
      .values({ id: 1, ...stored, updated_at: this.now() })
      .onConflict((oc) => oc.column('id').doUpdateSet({ ...stored, updated_at: this.now() }))
      .execute();
    return next;
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
