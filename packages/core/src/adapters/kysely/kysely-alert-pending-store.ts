import { sql, type Kysely } from 'kysely';
import type { AlertPendingStore, PendingCondition, PendingKind, PendingSighting } from '../../ports/alert-pending-store.js';
import type { AlertSource } from '../../domain/alert.js';
import type { Severity } from '../../domain/trap.js';
import type { Database } from './kysely-schema.js';
import { alertPendingColumns as columns, type AlertPendingRow } from '../../tables/alert-pending.table.js';
import { openKey } from './kysely-alert-store.js';

const toRecord = (row: AlertPendingRow): PendingCondition => ({
  ...row,
  level: Number(row.level) as Severity,
  hold_seconds: Number(row.hold_seconds),
});

/** Held conditions (docs/decisions/172-alert-damping.md), keyed as open alerts are. */
export class KyselyAlertPendingStore implements AlertPendingStore {
  constructor(private readonly db: Kysely<Database>) {}

  async hold(sighting: PendingSighting) {
    const { kind, source, resource_type, resource_id, resource_name, message, level, last_seen_at, hold_seconds } = sighting;
    const key = openKey(source, resource_type, resource_id);
    // One statement on both dialects: two replicas holding the same condition keep one row and its first sighting.
    const row = await this.db
      .insertInto('alert_pending')
      .values({
        condition_key: key,
        kind,
        source,
        resource_type,
        resource_id,
        resource_name,
        message,
        level,
        first_seen_at: last_seen_at,
        last_seen_at,
        hold_seconds,
      })
      .onConflict((conflict) =>
        conflict.column('condition_key').doUpdateSet({
          first_seen_at: sql`case when alert_pending.kind = excluded.kind then alert_pending.first_seen_at else excluded.first_seen_at end`,
          kind: sql`excluded.kind`,
          resource_name: sql`excluded.resource_name`,
          message: sql`excluded.message`,
          level: sql`excluded.level`,
          last_seen_at: sql`excluded.last_seen_at`,
          hold_seconds: sql`excluded.hold_seconds`,
        }),
      )
      .returning(columns)
      .executeTakeFirstOrThrow();
    return toRecord(row);
  }

  async release(source: AlertSource, resourceType: string | null, resourceId: string | null, kind?: PendingKind) {
    let query = this.db.deleteFrom('alert_pending').where('condition_key', '=', openKey(source, resourceType, resourceId));
    if (kind) query = query.where('kind', '=', kind);
    const row = await query.returning(columns).executeTakeFirst();
    return row && toRecord(row);
  }

  async list(source?: AlertSource) {
    let query = this.db.selectFrom('alert_pending').select(columns).orderBy('first_seen_at').orderBy('condition_key');
    if (source) query = query.where('source', '=', source);
    return (await query.execute()).map(toRecord);
  }

  async releaseAll(source: AlertSource) {
    const result = await this.db.deleteFrom('alert_pending').where('source', '=', source).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
