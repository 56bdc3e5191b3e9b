import { sql, type Kysely, type Selectable } from 'kysely';
import type { AuditEventInsert, AuditEventRecord, AuditEventStore } from '../../ports/audit-event-store.js';
import type { AuditChanges } from '../../domain/audit-event.js';
import type { ListQuery } from '../../list-query/list-query.js';
import type { AuditEventTable, Database } from './kysely-schema.js';
import type { DialectQuirks } from './kysely-dialect-quirks.js';
import { listRows } from './kysely-list-rows.js';

const columns = [
  'id',
  'at',
  'actor_kind',
  'actor_id',
  'actor_name',
  'via',
  'client_address',
  'request_id',
  'action',
  'resource_type',
  'resource_id',
  'resource_name',
  'changes',
  'outcome',
  'count',
] as const;

type Row = Pick<Selectable<AuditEventTable>, (typeof columns)[number]>;

function toRecord(row: Row): AuditEventRecord {
  return {
    ...row,
    id: Number(row.id),
    count: Number(row.count),
    changes: row.changes === null ? null : (JSON.parse(row.changes) as AuditChanges),
  } as AuditEventRecord;
}

function toRow(event: AuditEventInsert) {
  return { ...event, changes: event.changes === null ? null : JSON.stringify(event.changes) };
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

  async list(query: ListQuery) {
    const page = await listRows<Row>(this.db, this.quirks, 'audit_events', columns, query);
    return { count: page.count, items: page.items.map(toRecord) };
  }

  async purge(before: string, limit: number) {
    const oldest = this.db.selectFrom('audit_events').select('id').where('at', '<', before).orderBy('at').limit(limit);
    const result = await this.db.deleteFrom('audit_events').where('id', 'in', oldest).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
