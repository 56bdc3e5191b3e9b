import { sql, type Kysely, type Selectable } from 'kysely';
import type { SessionRecord, SessionStore, SessionWithUser, UserRecord } from '../../ports/storage.js';
import type { ListQuery } from '../../list-query/list-query.js';
import type { Database } from './kysely-schema.js';
import { sessionColumns as columns } from '../../tables/sessions.table.js';
import { userColumns, type UserTable } from '../../tables/users.table.js';
import type { DialectQuirks } from './kysely-dialect-quirks.js';
import { listRows } from './kysely-list-rows.js';
import type { PreparedReads } from './kysely-prepared.js';
import { whenReady, type MaybePromise } from '../../ports/maybe-promise.js';

/** The session's columns and its user's, prefixed, in one row. */
type JoinedRow = { [K in keyof SessionRecord as `s_${K}`]: SessionRecord[K] } & { [K in keyof Selectable<UserTable> as `u_${K}`]: Selectable<UserTable>[K] };

const toUser = (row: Selectable<UserTable>): UserRecord => ({ ...row, admin: Boolean(row.admin), disabled: Boolean(row.disabled) });

function split(row: JoinedRow): SessionWithUser {
  const session = Object.fromEntries(columns.map((column) => [column, row[`s_${column}`]])) as SessionRecord;
  const user = Object.fromEntries(userColumns.map((column) => [column, row[`u_${column}`]])) as Selectable<UserTable>;
  return { session, user: toUser(user) };
}

export class KyselySessionStore implements SessionStore {
  readonly #findWithUser: (id: string) => MaybePromise<SessionWithUser | undefined>;

  constructor(
    private readonly db: Kysely<Database>,
    reads: PreparedReads,
    private readonly quirks: DialectQuirks,
  ) {
    this.#findWithUser = quirks.name === 'postgres' ? this.joinedRead(db, reads) : this.twoReads(db, reads);
  }

  /**
   * PostgreSQL: one statement, the session by primary key joined with its user by primary key,
   * so a request pays one round trip, as the user's read alone did.
   */
  private joinedRead(db: Kysely<Database>, reads: PreparedReads): (id: string) => MaybePromise<SessionWithUser | undefined> {
    const read = reads.first(
      (id: string) =>
        db
          .selectFrom('sessions')
          .innerJoin('users', 'users.id', 'sessions.user_id')
          .select([
            ...columns.map((column) => sql.ref<string>(`sessions.${column}`).as(`s_${column}`)),
            ...userColumns.map((column) => sql.ref<string>(`users.${column}`).as(`u_${column}`)),
          ])
          .where('sessions.id', '=', id) as never,
    ) as (id: string) => MaybePromise<JoinedRow | undefined>;
    return (id) => whenReady(read(id), (row) => row && split(row));
  }

  /**
   * SQLite: two prepared primary-key reads in process, which measured faster there than the
   * join (docs/decisions/179-sessions.md): no round trip to save.
   */
  private twoReads(db: Kysely<Database>, reads: PreparedReads): (id: string) => MaybePromise<SessionWithUser | undefined> {
    const session = reads.first((id: string) => db.selectFrom('sessions').select(columns).where('id', '=', id));
    const user = reads.first((id: number) => db.selectFrom('users').select(userColumns).where('id', '=', id));
    return (id) => whenReady(session(id), (found) => found && whenReady(user(found.user_id), (owner) => owner && { session: found, user: toUser(owner) }));
  }

  async create(values: SessionRecord) {
    await this.db.insertInto('sessions').values(values).execute();
    return values;
  }

  findWithUser(id: string) {
    return this.#findWithUser(id);
  }

  async get(id: string) {
    return await this.db.selectFrom('sessions').select(columns).where('id', '=', id).executeTakeFirst();
  }

  async list(query: ListQuery, now: string, userId?: number) {
    const live = sql<boolean>`expires_at > ${now}`;
    const visible = userId === undefined ? live : sql<boolean>`${live} and user_id = ${userId}`;
    return await listRows<SessionRecord>(this.db, this.quirks, 'sessions', columns, query, { visible });
  }

  async touch(id: string, at: string) {
    await this.db.updateTable('sessions').set({ last_used_at: at }).where('id', '=', id).execute();
  }

  async delete(id: string) {
    const result = await this.db.deleteFrom('sessions').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async deleteForUser(userId: number) {
    const result = await this.db.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async prune(now: string) {
    const result = await this.db.deleteFrom('sessions').where('expires_at', '<=', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
