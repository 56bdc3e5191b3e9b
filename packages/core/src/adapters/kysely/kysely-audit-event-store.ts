import { sql, type Kysely } from 'kysely';
import type { AuditEventInsert, AuditEventRecord, AuditEventStore } from '../../ports/audit-event-store.js';
import type { AuditAction, AuditChanges } from '../../domain/audit-event.js';
import type { ListQuery } from '../../list-query/list-query.js';
import type { Database } from './kysely-schema.js';
import { auditEventColumns as columns, type AuditEventRow } from '../../tables/audit-events.table.js';
import { parseJsonText, toJsonText } from '../../tables/json-text.js';
import type { DialectQuirks } from './kysely-dialect-quirks.js';
import { listRows } from './kysely-list-rows.js';
import { listDefaults } from '../../defaults.js';

type Row = AuditEventRow;

function toRecord(row: Row): AuditEventRecord {
  return {
    ...row,
    id: Number(row.id),
    count: Number(row.count),
    changes: row.changes === null ? null : parseJsonText(row.changes),
  } as AuditEventRecord;
}

function toRow(event: AuditEventInsert) {
  return { ...event, changes: event.changes === null ? null : toJsonText(event.changes) };
}

export class KyselyAuditEventStore implements AuditEventStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly quirks: Pick<DialectQuirks, 'listTimeBound'>,
  ) {}

  async append(event: AuditEventInsert) {
    return toRecord(await this.db.insertInto('audit_events').values(toRow(event)).returning(columns).executeTakeFirstOrThrow());
  }

  async appendAggregated(event: AuditEventInsert, aggregateKey: string) {
    const row = await this.db
      .insertInto('audit_events')
      .values({ ...toRow(event), aggregate_key: aggregateKey })
      .onConflict((conflict) => conflict.column('aggregate_key').doUpdateSet({ count: sql`audit_events.count + 1` }))
      .returning(columns)
      .executeTakeFirstOrThrow();
    return toRecord(row);
  }

  async findAggregated(aggregateKey: string) {
    const row = await this.db.selectFrom('audit_events').select(columns).where('aggregate_key', '=', aggregateKey).executeTakeFirst();
    return row && toRecord(row);
  }

  async countAgain(id: number, changes: AuditChanges | null) {
    const row = await this.db
      .updateTable('audit_events')
      .set({ count: sql`count + 1`, changes: changes === null ? null : toJsonText(changes) })
      .where('id', '=', id)
      .returning(columns)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  async countBetween(action: AuditAction, from: string, to: string, cap: number) {
    const capped = this.db.selectFrom('audit_events').select('id').where('action', '=', action).where('at', '>=', from).where('at', '<', to).limit(cap);
    const row = await this.db
      .selectFrom(capped.as('capped'))
      .select((eb) => eb.fn.countAll().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async list(query: ListQuery) {
    const page = await listRows<Row>(this.db, this.quirks, 'audit_events', columns, query, { countWindow: listDefaults.historyCountWindow });
    return { ...page, items: page.items.map(toRecord) };
  }

  async purge(before: string, limit: number, action?: AuditAction) {
    let oldest = this.db.selectFrom('audit_events').select('id').where('at', '<', before);
    if (action !== undefined) oldest = oldest.where('action', '=', action);
    oldest = oldest.orderBy('at').limit(limit);
    const result = await this.db.deleteFrom('audit_events').where('id', 'in', oldest).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
