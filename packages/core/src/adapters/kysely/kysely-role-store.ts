import type { Kysely } from 'kysely';
import type { RoleInsert, RolePatch, RoleRecord, RoleStore } from '../../ports/role-store.js';
import type { Database } from './kysely-schema.js';
import type { DialectQuirks } from './kysely-dialect-quirks.js';
import { roleColumns as columns, type RoleRow } from '../../tables/roles.table.js';
import { parseJsonText, toJsonText } from '../../tables/json-text.js';
import { definedOnly, uniqueWrite } from './kysely-store-helpers.js';
import { inTransaction } from './kysely-transaction.js';

function toRecord(row: RoleRow): RoleRecord {
  return { ...row, scopes: parseJsonText(row.scopes) };
}

/** Custom roles; their scopes one JSON column. */
export class KyselyRoleStore implements RoleStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly quirks: DialectQuirks,
    private readonly now: () => string,
  ) {}

  async all() {
    const rows = await this.db.selectFrom('roles').select(columns).orderBy('name').execute();
    return rows.map(toRecord);
  }

  async findByName(name: string) {
    const row = await this.db.selectFrom('roles').select(columns).where('name', '=', name).executeTakeFirst();
    return row && toRecord(row);
  }

  async count() {
    const row = await this.db
      .selectFrom('roles')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async create(values: RoleInsert) {
    const at = this.now();
    const row = await uniqueWrite(this.quirks, 'name', values.name, () =>
      this.db
        .insertInto('roles')
        .values({ ...values, scopes: toJsonText(values.scopes), created_at: at, updated_at: at })
        .returning(columns)
        .executeTakeFirstOrThrow(),
    );
    return toRecord(row);
  }

  async update(id: number, patch: RolePatch) {
    const { scopes, ...rest } = definedOnly(patch);
    const row = await this.db
      .updateTable('roles')
      .set({ ...rest, ...(scopes === undefined ? {} : { scopes: toJsonText(scopes) }), updated_at: this.now() })
      .where('id', '=', id)
      .returning(columns)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  async deleteUnlessHeld(id: number) {
    return await inTransaction(this.db, async (trx) => {
      // The role row locked first: a user or key given it meanwhile is checked against it by its writer.
      const role = await trx.selectFrom('roles').select('name').where('id', '=', id).executeTakeFirst();
      if (!role) return undefined;
      const count = async (table: 'users' | 'api_keys') =>
        Number(
          (
            await trx
              .selectFrom(table)
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('role', '=', role.name)
              .executeTakeFirstOrThrow()
          ).n,
        );
      const holders = { users: await count('users'), apiKeys: await count('api_keys') };
      if (holders.users === 0 && holders.apiKeys === 0) await trx.deleteFrom('roles').where('id', '=', id).execute();
      return holders;
    });
  }
}
