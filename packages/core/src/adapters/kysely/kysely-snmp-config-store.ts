import type { Kysely } from 'kysely';
import type { SnmpConfigStore } from '../../ports/storage.js';
import { defaultSnmpConfig, type SnmpConfig } from '../../domain/snmp-config.js';
import type { Database } from './kysely-schema.js';
import { definedOnly } from './kysely-store-helpers.js';

const columns = ['version', 'community', 'location', 'contact'] as const;

/** The single configuration row (id 1), created with the defaults on first use. */
export class KyselySnmpConfigStore implements SnmpConfigStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => string,
  ) {}

  async get(): Promise<SnmpConfig> {
    const row = await this.db.selectFrom('snmp_server_configuration').select(columns).where('id', '=', 1).executeTakeFirst();
    return (row as SnmpConfig | undefined) ?? { ...defaultSnmpConfig };
  }

  async update(patch: Partial<SnmpConfig>): Promise<SnmpConfig> {
    const next = { ...(await this.get()), ...definedOnly(patch) };
    await this.db
      .insertInto('snmp_server_configuration')
      .values({ id: 1, ...next, updated_at: this.now() })
      .onConflict((oc) => oc.column('id').doUpdateSet({ ...next, updated_at: this.now() }))
      .execute();
    return next;
  }
}
