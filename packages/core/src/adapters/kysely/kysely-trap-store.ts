import type { Kysely } from 'kysely';
import type { TrapInsert, TrapRecord, TrapStore } from '../../ports/storage.js';
import type { ListQuery } from '../../list-query/list-query.js';
import type { Database } from './kysely-schema.js';
import type { SecretColumn } from './kysely-secret-column.js';
import { listRows } from './kysely-list-rows.js';
import { definedOnly } from './kysely-store-helpers.js';

const columns = ['id', 'activation', 'version', 'manager', 'community', 'severity_low', 'severity_high'] as const;

/**
 * Trap targets. The community is sealed in the row and opened here, so every reader (the
 * service, the dispatcher) sees it in clear and none can forget to open it.
 */
export class KyselyTrapStore implements TrapStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => string,
    private readonly communities: SecretColumn,
  ) {}

  async list(query: ListQuery) {
    const page = await listRows<TrapRecord>(this.db, 'snmp_traps', columns, query);
    return { count: page.count, items: page.items.map((row) => this.#open(row)) };
  }

  async listActive() {
    const rows = (await this.db.selectFrom('snmp_traps').select(columns).where('activation', '=', 1).orderBy('id').execute()) as TrapRecord[];
    return rows.map((row) => this.#open(row));
  }

  async get(id: number) {
    const row = (await this.db.selectFrom('snmp_traps').select(columns).where('id', '=', id).executeTakeFirst()) as TrapRecord | undefined;
    return row && this.#open(row);
  }

  async create(values: TrapInsert) {
    const at = this.now();
    const row = (await this.db
      .insertInto('snmp_traps')
      .values({ ...values, community: this.communities.seal(values.community), created_at: at, updated_at: at })
      .returning(columns)
      .executeTakeFirstOrThrow()) as TrapRecord;
    return this.#open(row);
  }

  async update(id: number, patch: Partial<TrapInsert>) {
    const { community, ...rest } = definedOnly(patch);
    const row = (await this.db
      .updateTable('snmp_traps')
      .set({ ...rest, ...(community === undefined ? {} : { community: this.communities.seal(community) }), updated_at: this.now() })
      .where('id', '=', id)
      .returning(columns)
      .executeTakeFirst()) as TrapRecord | undefined;
    return row && this.#open(row);
  }

  async delete(id: number) {
    const result = await this.db.deleteFrom('snmp_traps').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * Seals the communities that earlier versions stored in clear; returns how many. Each row
   * is rewritten only if it still holds the value read, so a target changed meanwhile stays.
   */
  async sealLegacyCommunities(): Promise<number> {
    const rows = await this.db.selectFrom('snmp_traps').select(['id', 'community']).execute();
    const legacy = rows.filter((row) => this.communities.isLegacy(row.community));
    for (const { id, community } of legacy) {
      await this.db
        .updateTable('snmp_traps')
        .set({ community: this.communities.seal(community) })
        .where('id', '=', id)
        .where('community', '=', community)
        .execute();
    }
    return legacy.length;
  }

  #open(row: TrapRecord): TrapRecord {
    return { ...row, community: this.communities.open(row.community) };
  }
}
