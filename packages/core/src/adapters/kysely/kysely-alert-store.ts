import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { AlertReader, AlertRecord, AlertSettingRecord, AlertSighting, AlertStore } from '../../ports/alert-store.js';
import type { AlertSource } from '../../domain/alert.js';
import type { Severity } from '../../domain/trap.js';
import type { ListQuery } from '../../list-query/list-query.js';
import type { Database } from './kysely-schema.js';
import { alertColumns as columns, type AlertRow } from '../../tables/alerts.table.js';
import type { DialectQuirks } from './kysely-dialect-quirks.js';
import { listRows } from './kysely-list-rows.js';

type Row = AlertRow;

const toRecord = (row: Row): AlertRecord => ({
  ...row,
  id: Number(row.id),
  source: row.source as AlertSource,
  level: Number(row.level) as Severity,
  silenced: Boolean(row.silenced),
});

/** One open alert per condition: the key is set while open, null once cleared. */
export const openKey = (source: string, type: string | null, id: string | null) => JSON.stringify([source, type, id]);

/** Every alert but those about API keys of others (decision 114): the key's id is the alert's resource id, as text. */
function visibleTo(reader: AlertReader): RawBuilder<SqlBool> {
  const type = sql.ref('alerts.resource_type');
  const ownKeys =
    reader.keyOwnerUserId === null
      ? sql<SqlBool>`1 = 0`
      : sql<SqlBool>`${sql.ref('alerts.resource_id')} in (select cast(id as text) from api_keys where owner_user_id = ${reader.keyOwnerUserId})`;
  return sql<SqlBool>`(${type} is null or ${type} <> 'api_keys' or ${ownKeys})`;
}

export class KyselyAlertStore implements AlertStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly quirks: Pick<DialectQuirks, 'listTimeBound'>,
  ) {}

  async sight(sighting: AlertSighting) {
    const { at, since, silenced: isSilenced = false, ...condition } = sighting;
    const silenced = isSilenced ? 1 : 0;
    const key = openKey(sighting.source, sighting.resource_type, sighting.resource_id);
    // The open alert's level before this sighting (an indexed read of the one open row): a change is announced.
    const before = await this.db.selectFrom('alerts').select('level').where('open_key', '=', key).executeTakeFirst();
    const row = await this.db
      .insertInto('alerts')
      .values({ ...condition, raised_at: since ?? at, last_seen_at: at, cleared_at: null, dismissed_at: null, open_key: key, silenced })
      .onConflict((conflict) =>
        conflict
          .column('open_key')
          .doUpdateSet({ last_seen_at: at, message: sighting.message, level: sighting.level, sightings: sql`alerts.sightings + 1`, silenced }),
      )
      .returning([...columns, 'sightings'])
      .executeTakeFirstOrThrow();
    // Counted, not told apart by time: two sightings in one millisecond raise once.
    const { sightings, ...alert } = row;
    return { alert: toRecord(alert), raised: Number(sightings) === 1, previousLevel: before ? (Number(before.level) as Severity) : null };
  }

  async clear(source: AlertSource, resourceType: string | null, resourceId: string | null, at: string) {
    const row = await this.db
      .updateTable('alerts')
      .set({ cleared_at: at, open_key: null })
      .where('open_key', '=', openKey(source, resourceType, resourceId))
      .returning(columns)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  async findOpen(source: AlertSource, resourceType: string | null, resourceId: string | null) {
    const row = await this.db
      .selectFrom('alerts')
      .select(columns)
      .where('open_key', '=', openKey(source, resourceType, resourceId))
      .executeTakeFirst();
    return row && toRecord(row);
  }

  async open(source: AlertSource) {
    const rows = await this.db.selectFrom('alerts').select(columns).where('source', '=', source).where('cleared_at', 'is', null).orderBy('id').execute();
    return rows.map(toRecord);
  }

  async openAll() {
    const rows = await this.db.selectFrom('alerts').select(columns).where('cleared_at', 'is', null).orderBy('id').execute();
    return rows.map(toRecord);
  }

  async markSilenced(id: number, heldBy: readonly number[], at: string) {
    if (heldBy.length === 0) return;
    await this.db
      .updateTable('alerts')
      .set({ silenced: 1 })
      .where('id', '=', id)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('silences')
            .select('silences.id')
            .where('silences.id', 'in', heldBy)
            .where('silences.window_starts_at', '<=', at)
            .where((inner) => inner.or([inner('silences.window_ends_at', 'is', null), inner('silences.window_ends_at', '>', at)])),
        ),
      )
      .execute();
  }

  async unsilence(source: AlertSource, resourceType: string | null, resourceId: string | null) {
    // Conditional: of concurrent callers (replicas), the one whose update finds it marked tells it.
    const row = await this.db
      .updateTable('alerts')
      .set({ silenced: 0 })
      .where('open_key', '=', openKey(source, resourceType, resourceId))
      .where('silenced', '=', 1)
      .returning(columns)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  async countOpen() {
    const rows = await this.db
      .selectFrom('alerts')
      .select(['source', 'level', (eb) => eb.fn.countAll<number>().as('count')])
      .where('cleared_at', 'is', null)
      .groupBy(['source', 'level'])
      .execute();
    return rows.map((row) => ({ source: row.source, level: row.level, count: Number(row.count) }));
  }

  async get(id: number) {
    const row = await this.db.selectFrom('alerts').select(columns).where('id', '=', id).executeTakeFirst();
    return row && toRecord(row);
  }

  async list(query: ListQuery, reader?: AlertReader) {
    const page = await listRows<Row>(this.db, this.quirks, 'alerts', columns, query, { visible: reader && visibleTo(reader) });
    return { count: page.count, items: page.items.map(toRecord) };
  }

  async dismiss(id: number, at: string | null) {
    const row = await this.db.updateTable('alerts').set({ dismissed_at: at }).where('id', '=', id).returning(columns).executeTakeFirst();
    return row && toRecord(row);
  }

  async purgeCleared(before: string, limit: number) {
    const oldest = this.db.selectFrom('alerts').select('id').where('cleared_at', '<', before).orderBy('cleared_at').limit(limit);
    const result = await this.db.deleteFrom('alerts').where('id', 'in', oldest).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async settings() {
    const rows = await this.db
      .selectFrom('alert_settings')
      .select(['source', 'enabled', 'level', 'warning_percent', 'critical_percent', 'days', 'raise_after_seconds', 'clear_after_seconds'])
      .execute();
    return rows.map((row) => ({
      source: row.source as AlertSource,
      enabled: Boolean(row.enabled),
      level: Number(row.level) as Severity,
      ...(row.warning_percent === null ? {} : { warning_percent: Number(row.warning_percent) }),
      ...(row.critical_percent === null ? {} : { critical_percent: Number(row.critical_percent) }),
      ...(row.days === null ? {} : { days: Number(row.days) }),
      raise_after_seconds: row.raise_after_seconds === null ? null : Number(row.raise_after_seconds),
      clear_after_seconds: Number(row.clear_after_seconds ?? 0),
    }));
  }

  async saveSetting(setting: AlertSettingRecord) {
    const thresholds = {
      warning_percent: setting.warning_percent ?? null,
      critical_percent: setting.critical_percent ?? null,
      days: setting.days ?? null,
    };
    const holds = { raise_after_seconds: setting.raise_after_seconds, clear_after_seconds: setting.clear_after_seconds };
    const values = { source: setting.source, enabled: setting.enabled ? 1 : 0, level: setting.level, ...thresholds, ...holds };
    await this.db
      .insertInto('alert_settings')
      .values(values)
      .onConflict((conflict) => conflict.column('source').doUpdateSet({ enabled: values.enabled, level: values.level, ...thresholds, ...holds }))
      .execute();
  }
}
