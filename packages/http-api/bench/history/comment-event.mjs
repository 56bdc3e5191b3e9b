// The audit event the service writes for a REST comment change of a NAS (AuditTrail.insert,
// describeChanges): what the benches that cost an audited write append with the update.
import { randomUUID } from 'node:crypto';

/** The event of `nas`'s comment changed from `from` to `to` by the admin over REST. */
export function commentEvent(nas, from, to) {
  return {
    at: new Date().toISOString(),
    actor_kind: 'user',
    actor_id: 1,
    actor_name: 'admin',
    via: 'rest',
    client_address: '127.0.0.1',
    request_id: randomUUID(),
    action: 'update',
    resource_type: 'nas',
    resource_id: String(nas.id),
    resource_name: nas.name,
    changes: { comment: { from, to } },
    outcome: 'success',
  };
}
