import type { AuditAction, AuditChanges } from '../domain/audit-event.js';
import type { AuditEventRow } from '../tables/audit-events.table.js';
import type { ListPage, ListQuery } from '../list-query/list-query.js';

/** An audit event as stored, its changes parsed: the answer's nested actor and resource, flattened to columns. */
export interface AuditEventRecord extends Omit<AuditEventRow, 'changes'> {
  changes: AuditChanges | null;
}

export type AuditEventInsert = Omit<AuditEventRecord, 'id' | 'count'>;

/**
 * The audit log. `append` is called inside the transaction of the change it records (through
 * `Storage.transaction`), so an event exists exactly when its change was committed.
 */
export interface AuditEventStore {
  append(event: AuditEventInsert): Promise<AuditEventRecord>;
  /**
   * Adds one occurrence to the event of `aggregateKey` (one per client and hour for failed
   * sign-ins), creating it the first time: a flood grows a counter, not the table.
   */
  appendAggregated(event: AuditEventInsert, aggregateKey: string): Promise<AuditEventRecord>;
  /** The event of `aggregateKey`, if there is one. */
  findAggregated(aggregateKey: string): Promise<AuditEventRecord | undefined>;
  /** One more occurrence of event `id`, with `changes` as given (what it counts so far). */
  countAgain(id: number, changes: AuditChanges | null): Promise<AuditEventRecord | undefined>;
  /** How many events of `action` lie in [`from`, `to`), counted up to `cap` (an index range, never more). */
  countBetween(action: AuditAction, from: string, to: string, cap: number): Promise<number>;
  list(query: ListQuery): Promise<ListPage<AuditEventRecord>>;
  /** Deletes at most `limit` events older than `before` (of `action` only, when given); resolves how many. */
  purge(before: string, limit: number, action?: AuditAction): Promise<number>;
}
