import { sql, type Kysely } from 'kysely';
import type {
  NotificationChannelInsert,
  NotificationChannelPatch,
  NotificationChannelRecord,
  NotificationChannelStore,
  DispatchChannelRecord,
  ChannelRoute,
} from '../../ports/notification-store.js';
import { trapChannelPrefix, type ChannelType } from '../../domain/notification-channel.js';
import type { ListQuery } from '../../list-query/list-query.js';
import type { Database } from './kysely-schema.js';
import type { DialectQuirks } from './kysely-dialect-quirks.js';
import type { SecretColumn } from './kysely-secret-column.js';
import { notificationChannelColumns as columns, type NotificationChannelRow } from '../../tables/notification-channels.table.js';
import { parseJsonText, toJsonText } from '../../tables/json-text.js';
import { listRows } from './kysely-list-rows.js';
import { definedOnly, uniqueWrite } from './kysely-store-helpers.js';

/** Notification channels; the secrets are one sealed JSON object, opened here for every reader. */
export class KyselyNotificationChannelStore implements NotificationChannelStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly quirks: DialectQuirks,
    private readonly now: () => string,
    private readonly secrets: SecretColumn,
  ) {}

  async list(query: ListQuery) {
    const apiChannels = sql<boolean>`${sql.ref('notification_channels.trap_id')} is null`;
    const page = await listRows<NotificationChannelRow>(this.db, this.quirks, 'notification_channels', columns, query, { visible: apiChannels });
    return { count: page.count, items: page.items.map((row) => this.#api(row)) };
  }

  async get(id: number) {
    const row = await this.#apiChannels().where('id', '=', id).executeTakeFirst();
    return row && this.#api(row);
  }

  async getForDispatch(id: number) {
    const row = await this.db.selectFrom('notification_channels').select(columns).where('id', '=', id).executeTakeFirst();
    return row && this.#open(row);
  }

  async trapChannel(trapId: number) {
    const at = this.now();
    const row = await this.db
      .insertInto('notification_channels')
      .values({
        name: `${trapChannelPrefix}${trapId}`,
        type: 'snmp_trap',
        enabled: 1,
        min_level: 1,
        sources: null,
        digest: 'immediately',
        settings: toJsonText({}),
        secrets: this.secrets.seal('{}'),
        trap_id: trapId,
        digested_until: null,
        failing_since: null,
        created_at: at,
        updated_at: at,
      })
      .onConflict((conflict) => conflict.column('trap_id').doUpdateSet({ enabled: 1 }))
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  async findByName(name: string) {
    const row = await this.#apiChannels().where('name', '=', name).executeTakeFirst();
    return row && this.#api(row);
  }

  async listEnabled() {
    const rows = await this.#apiChannels().where('enabled', '=', 1).orderBy('id').execute();
    return rows.map((row) => this.#api(row));
  }

  async listRoutes() {
    const rows = await this.db
      .selectFrom('notification_channels')
      .select(['id', 'type', 'enabled', 'min_level', 'sources', 'digest'])
      .where('trap_id', 'is', null)
      .where('enabled', '=', 1)
      .orderBy('id')
      .execute();
    return rows.map((row): ChannelRoute => ({
      id: Number(row.id),
      type: row.type as ChannelType,
      enabled: Number(row.enabled) === 1,
      min_level: Number(row.min_level),
      sources: row.sources === null ? null : parseJsonText(row.sources),
      digest: row.digest,
    }));
  }

  #apiChannels() {
    return this.db.selectFrom('notification_channels').select(columns).where('trap_id', 'is', null);
  }

  /** A row of the API's channels (trap_id null: its type is one of the API's). */
  #api(row: NotificationChannelRow): NotificationChannelRecord {
    const { trap_id: _trap, ...record } = this.#open(row);
    return record as NotificationChannelRecord;
  }

  async create(values: NotificationChannelInsert) {
    const at = this.now();
    const row = await uniqueWrite(this.quirks, 'name', values.name, () =>
      this.db
        .insertInto('notification_channels')
        .values({ ...this.#columns(values), created_at: at, updated_at: at } as never)
        .returning(columns)
        .executeTakeFirstOrThrow(),
    );
    return this.#api(row);
  }

  async update(id: number, patch: NotificationChannelPatch) {
    const row = await uniqueWrite(this.quirks, 'name', patch.name, () =>
      this.db
        .updateTable('notification_channels')
        .set({ ...this.#columns(patch), updated_at: this.now() })
        .where('id', '=', id)
        .returning(columns)
        .executeTakeFirst(),
    );
    return row && this.#api(row);
  }

  async delete(id: number) {
    const result = await this.db.deleteFrom('notification_channels').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async recordOutcome(id: number, success: boolean, at: string) {
    const before = await this.db.selectFrom('notification_channels').select(['consecutive_failures']).where('id', '=', id).executeTakeFirst();
    if (!before) return undefined;
    // a success on a channel with no failure changes nothing: no write (one commit less a delivery)
    if (success && Number(before.consecutive_failures) === 0) return { failuresBefore: 0 };
    await this.db
      .updateTable('notification_channels')
      .set(
        success
          ? { consecutive_failures: 0, failing_since: null }
          : (eb) => ({
              consecutive_failures: eb('consecutive_failures', '+', 1),
              failing_since: eb.fn.coalesce('failing_since', eb.val(at)),
            }),
      )
      .where('id', '=', id)
      .execute();
    return { failuresBefore: Number(before.consecutive_failures) };
  }

  #columns(values: NotificationChannelPatch) {
    const { enabled, sources, settings, secrets, ...rest } = definedOnly(values);
    return {
      ...rest,
      ...(enabled === undefined ? {} : { enabled: enabled ? 1 : 0 }),
      ...(sources === undefined ? {} : { sources: sources === null ? null : toJsonText(sources) }),
      ...(settings === undefined ? {} : { settings: toJsonText(settings) }),
      ...(secrets === undefined ? {} : { secrets: this.secrets.seal(JSON.stringify(secrets)) }),
    };
  }

  #open(row: NotificationChannelRow): DispatchChannelRecord {
    return {
      ...row,
      id: Number(row.id),
      trap_id: row.trap_id === null ? null : Number(row.trap_id),
      enabled: Number(row.enabled) === 1,
      min_level: Number(row.min_level),
      digest_hour: Number(row.digest_hour),
      consecutive_failures: Number(row.consecutive_failures),
      sources: row.sources === null ? null : parseJsonText(row.sources),
      settings: parseJsonText(row.settings),
      secrets: JSON.parse(this.secrets.open(row.secrets)) as Record<string, string>,
    };
  }
}
