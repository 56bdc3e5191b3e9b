import type { Call } from '../call.js';
import type { AuditEvent, AuditEventCollection, FilterFieldOf, SortFieldOf } from '../types.js';
import { listQuery, pages, type ListOptions } from './crud.js';

/** An audit list filters and sorts on the same attributes (`actor` is the actor's name). */
export type AuditEventListOptions = ListOptions<FilterFieldOf<'listAuditEvents'>, SortFieldOf<'listAuditEvents'>>;

/** The audit log (GET /audit_events): administrators only, any other credential is 403. */
export interface AuditEventsResource {
  /** One page of events, newest first unless `sortBy` says otherwise, and `count`. */
  list(options?: AuditEventListOptions): Promise<AuditEventCollection>;
  /** Every matching event, page after page (`limit` a request, 100 by default). */
  listAll(options?: AuditEventListOptions): AsyncIterableIterator<AuditEvent>;
}

export function auditEventsResource(call: Call): AuditEventsResource {
  const list = (options: ListOptions<string, string> = {}) =>
    call('GET', '/audit_events', { query: listQuery(options), signal: options.signal }) as Promise<AuditEventCollection>;
  return { list, listAll: (options = {}) => pages<AuditEvent>(list, 'audit_events', options) };
}
