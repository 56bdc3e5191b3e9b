import type { Generated, Selectable } from 'kysely';
import type { AuditAction, AuditActorKind, AuditChanges, AuditOutcome, AuditVia } from '../domain/audit-event.js';
import { columnsOf } from './columns.js';
import type { JsonText } from './json-text.js';

/** An audit event: the answer's nested actor and resource, flattened to columns. */
export interface AuditEventTable {
  id: Generated<number>;
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
  changes: JsonText<AuditChanges> | null;
  outcome: AuditOutcome;
  count: Generated<number>;
  /** Set on an event that counts occurrences (failed sign-ins per client and hour); the store's own. */
  aggregate_key: string | null;
}

/** An event as its store reads it (its changes still JSON text). */
export type AuditEventRow = Omit<Selectable<AuditEventTable>, 'aggregate_key'>;
export const auditEventColumns = columnsOf<AuditEventRow>({
  id: true,
  at: true,
  actor_kind: true,
  actor_id: true,
  actor_name: true,
  via: true,
  client_address: true,
  request_id: true,
  action: true,
  resource_type: true,
  resource_id: true,
  resource_name: true,
  changes: true,
  outcome: true,
  count: true,
});
