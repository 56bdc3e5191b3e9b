import { inTransaction } from './kysely-transaction.js';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { UserRecord, UserStore } from '../../ports/storage.js';
import type { ListQuery } from '../../list-query/list-query.js';
import type { Database } from './kysely-schema.js';
import { userColumns as columns, type UserTable } from '../../tables/users.table.js';
import type { DialectQuirks } from './kysely-dialect-quirks.js';
import { listRows } from './kysely-list-rows.js';
import { uniqueWrite } from './kysely-store-helpers.js';

function toRecord(row: Selectable<UserTable>): UserRecord {
  return { ...row, admin: Boolean(row.admin), disabled: Boolean(row.disabled) };
}

/** The admin column is the admin role, written with it: the index the last-admin guard locks. */
const adminFlag = (role: string): number => (role === 'admin' ? 1 : 0);

export class KyselyUserStore implements UserStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly quirks: DialectQuirks,
    private readonly now: () => string,
  ) {}

  async create(values: { username: string; password_hash: string; role: string }) {
    const row = await uniqueWrite(this.quirks, 'username', values.username, () =>
      this.db
        .insertInto('users')
        .values({ ...values, admin: adminFlag(values.role), created_at: this.now() })
        .returning(columns)
        .executeTakeFirstOrThrow(),
    );
    return toRecord(row);
  }

  async findByUsername(username: string) {
    const row = await this.db.selectFrom('users').select(columns).where('username', '=', username).executeTakeFirst();
    return row && toRecord(row);
  }

  async get(id: number) {
    const row = await this.db.selectFrom('users').select(columns).where('id', '=', id).executeTakeFirst();
    return row && toRecord(row);
  }

  async list(query: ListQuery) {
    const page = await listRows<Selectable<UserTable>>(this.db, this.quirks, 'users', columns, query);
    return { count: page.count, items: page.items.map(toRecord) };
  }

  async updatePasswordHash(id: number, passwordHash: string) {
    const result = await this.db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', id).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async setRole(id: number, role: string) {
    const result = await this.db
      .updateTable('users')
      .set({ role, admin: adminFlag(role) })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async setDisabled(id: number, disabled: boolean) {
    const result = await this.db
      .updateTable('users')
      .set({ disabled: disabled ? 1 : 0 })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async demoteUnlessLastAdmin(id: number, toRole: string) {
    return await inTransaction(this.db, async (trx) => {
      // Every admin row locked, in id order so that two demotions cannot deadlock: the second
      // waits for the first to commit, then counts the admins that are left.
      const admins = await trx.selectFrom('users').select('id').where('admin', '=', 1).orderBy('id').modifyEnd(sql.raw(this.quirks.rowLockClause)).execute();
      if (!admins.some((row) => row.id === id)) return true;
      if (admins.length <= 1) return false;
      await trx
        .updateTable('users')
        .set({ role: toRole, admin: adminFlag(toRole) })
        .where('id', '=', id)
        .execute();
      return true;
    });
  }

  async countAdmins() {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('admin', '=', 1)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async delete(id: number) {
    const result = await this.db.deleteFrom('users').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async count() {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }
}
