import type { Kysely } from 'kysely';
import type { TrapInsert, TrapRecord, TrapStore } from '../../ports/storage.js';
import type { ListQuery } from '../../list-query/list-query.js';
import type { Database } from './kysely-schema.js';
import { snmpTrapColumns as columns } from '../../tables/snmp-traps.table.js';
import type { DialectQuirks } from './kysely-dialect-quirks.js';
import type { SecretColumn } from './kysely-secret-column.js';
import { listRows } from './kysely-list-rows.js';
import { definedOnly } from './kysely-store-helpers.js';

/** The columns sealed at rest: the v1/v2c community and the v3 passphrases. */
const passphrases = ['auth_passphrase', 'priv_passphrase'] as const;

/**
 * Trap targets. The community and the passphrases are sealed in the row and opened here, so
 * every reader (the service, the dispatcher) sees them in clear and none can forget to open them.
 */
export class KyselyTrapStore implements TrapStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => string,
    /** Seals and opens every secret of a target, not only the community. */
    private readonly communities: SecretColumn,
    private readonly quirks: Pick<DialectQuirks, 'listTimeBound'>,
  ) {}

  async list(query: ListQuery) {
    const page = await listRows<TrapRecord>(this.db, this.quirks, 'snmp_traps', columns, query);
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
      .values({ ...this.#seal(values), created_at: at, updated_at: at })
      .returning(columns)
      .executeTakeFirstOrThrow()) as TrapRecord;
    return this.#open(row);
  }

  async update(id: number, patch: Partial<TrapInsert>) {
    const row = (await this.db
      .updateTable('snmp_traps')
      .set({ ...this.#seal(definedOnly(patch)), updated_at: this.now() })
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

  #seal<T extends Partial<TrapInsert>>(values: T): T {
    const sealed: Partial<TrapInsert> = { ...values };
    if (values.community !== undefined) sealed.community = this.communities.seal(values.community);
    for (const field of passphrases) {
      const clear = values[field];
      if (clear !== undefined && clear !== null) sealed[field] = this.communities.seal(clear);
    }
    return sealed as T;
  }

  #open(row: TrapRecord): TrapRecord {
    const open = (stored: string | null) => (stored === null ? null : this.communities.open(stored));
    return { ...row, community: this.communities.open(row.community), auth_passphrase: open(row.auth_passphrase), priv_passphrase: open(row.priv_passphrase) };
  }
}
