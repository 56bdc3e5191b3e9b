import type { AuditAction, AuditActorKind, AuditChanges, AuditOutcome, AuditVia } from '../domain/audit-event.js';
import type { ListPage, ListQuery } from '../list-query/list-query.js';

/** An audit event as stored: the answer's nested actor and resource, flattened to columns. */
export interface AuditEventRecord {
  id: number;
  at: string;
  actor_kind: AuditActorKind;
  actor_id: number | null;
  actor_name: string;
  via: AuditVia;
  client_address: string | null;
  request_id: string | null;
  action: AuditAction;
  resource_type: string | null;
  resource_id: string | null;
  resource_name: string | null;
  changes: AuditChanges | null;
  outcome: AuditOutcome;
  count: number;
}

export type AuditEventInsert = Omit<AuditEventRecord, 'id' | 'count'>;

/**
 * The audit log. `append` is called inside the transaction of the change it records (through
 * `Storage.transaction`), so an event exists exactly when its change was committed.
 */
export interface AuditEventStore {
  append(event: AuditEventInsert): Promise<AuditEventRecord>;
  /**
   * Adds one occurrence to the event of `aggregateKey` (one per address, username and minute
   * for failed sign-ins), creating it the first time: a flood grows a counter, not the table.
   */
  appendAggregated(event: AuditEventInsert, aggregateKey: string): Promise<AuditEventRecord>;
  list(query: ListQuery): Promise<ListPage<AuditEventRecord>>;
  /** Deletes at most `limit` events older than `before`; resolves how many. */
  purge(before: string, limit: number): Promise<number>;
}
