import type { CoreDeps } from './core-deps.js';
import type { Stores } from '../ports/storage.js';
import type { AuditEventInsert, AuditEventRecord } from '../ports/audit-event-store.js';
import type { CallOrigin, Principal } from '../scopes/principal.js';
import {
  auditEventListSpec,
  secretChange,
  type AuditAction,
  type AuditChanges,
  type AuditEvent,
  type AuditOutcome,
  type AuditResource,
} from '../domain/audit-event.js';
import { authorizeAdmin } from '../scopes/scope-check.js';
import { parseListQuery, type RawQuery } from '../list-query/parse-list-query.js';
import { newestFirst } from '../list-query/newest-first.js';
import { addressKey } from '../security/client-address-key.js';
import { auditDefaults } from '../defaults.js';

/** What a change says about itself; who made it and from where the trail knows. */
export interface AuditNote {
  action: AuditAction;
  resource: AuditResource | null;
  changes?: AuditChanges | null;
  outcome?: AuditOutcome;
}

/** A change's result and its note; `audit: null` when it changed nothing worth a record. */
export interface AuditedResult<T> {
  result: T;
  audit: AuditNote | null;
}

/**
 * The rows a purge deletes in one statement. SQLite deletes on the event loop's thread, ~0.1 ms
 * a job row with its indexes (bench): a batch of 100 holds the loop and the write lock ~10 ms.
 */
export const purgeBatchSize = 100;

/**
 * Each changed field of `input` (what the caller sent, validated): `{from, to}` against the
 * record before and after, or `"changed"` for a secret (docs/decisions/084-audit-trail.md: no value, ever). Fields
 * sent but left as they were are not listed. `before` is null for a create.
 */
export function describeChanges(before: object | null, after: object, input: object, secretFields: readonly string[] = []): AuditChanges | null {
  const valueIn = (record: object, field: string): unknown => (record as Record<string, unknown>)[field] ?? null;
  const changes: AuditChanges = {};
  for (const [field, sent] of Object.entries(input)) {
    if (sent === undefined) continue;
    if (secretFields.includes(field)) {
      changes[field] = secretChange;
      continue;
    }
    const from = before ? valueIn(before, field) : null;
    const to = valueIn(after, field);
    if (before && JSON.stringify(from) === JSON.stringify(to)) continue;
    changes[field] = { from, to };
  }
  return Object.keys(changes).length > 0 ? changes : null;
}

/** A resource as events name it: its path name, id and name. */
export function auditResource(type: string, id: number | string | null, name: string | null = null): AuditResource {
  return { type, id: id === null ? null : String(id), name };
}

function actorOf(principal: Principal): Pick<AuditEventInsert, 'actor_kind' | 'actor_id' | 'actor_name'> {
  if (principal.kind === 'api_key') return { actor_kind: 'api_key', actor_id: principal.keyId, actor_name: principal.name };
  // The system principal (id 0) is the CLI's and the console's own: no stored user.
  if (principal.userId <= 0) return { actor_kind: 'system', actor_id: null, actor_name: principal.username };
  return { actor_kind: 'user', actor_id: principal.userId, actor_name: principal.username };
}

function originColumns(origin: CallOrigin | undefined): Pick<AuditEventInsert, 'via' | 'client_address' | 'request_id'> {
  return { via: origin?.via ?? 'cli', client_address: origin?.clientAddress ?? null, request_id: origin?.requestId ?? null };
}

/** The answer's shape of a stored event. */
export function presentAuditEvent(record: AuditEventRecord): AuditEvent {
  return {
    id: record.id,
    at: record.at,
    actor: { kind: record.actor_kind, id: record.actor_id, name: record.actor_name },
    via: record.via,
    client_address: record.client_address,
    request_id: record.request_id,
    action: record.action,
    resource: record.resource_type === null ? null : { type: record.resource_type, id: record.resource_id, name: record.resource_name },
    changes: record.changes,
    outcome: record.outcome,
    count: record.count,
  };
}

/**
 * The audit log: every change with who made it, from where, and what it changed. A change and
 * its event are written in one transaction (`change`), so there is no change without its
 * record and no record of a change that rolled back. Each committed event is also handed to
 * `onRecorded` (the service logs it as one `audit: true` line for a log shipper).
 */
export class AuditTrail {
  constructor(
    private readonly deps: Pick<CoreDeps, 'storage' | 'clock'>,
    private readonly onRecorded: (event: AuditEvent) => void = () => {},
  ) {}

  /** Runs `work` in one storage transaction with the event it notes; resolves its result. */
  async change<T>(principal: Principal, work: (stores: Stores) => Promise<AuditedResult<T>>): Promise<T> {
    const { result, stored } = await this.deps.storage.transaction(async (stores) => {
      const { result, audit } = await work(stores);
      return { result, stored: audit ? await stores.auditEvents.append(this.insert(principal, audit)) : undefined };
    });
    if (stored) this.told(stored);
    return result;
  }

  /** An event that is its own change (a sign-in). */
  async record(principal: Principal, note: AuditNote): Promise<void> {
    this.told(await this.deps.storage.auditEvents.append(this.insert(principal, note)));
  }

  /**
   * A refused sign-in, written by anyone who can reach the service: one event per client
   * (`addressKey`: an IPv6 one by its /64) and UTC hour whatever the user name, its `count`
   * growing and `changes.usernames` keeping the first few names tried (never a password). At
   * most `failedSignInClientsPerHour` clients get an event of their own an hour; the failures
   * of any other client that hour grow one overflow event without an address. So a flood from
   * any number of addresses adds a bounded number of rows an hour (decision 112).
   */
  async loginFailed(origin: CallOrigin, username: string): Promise<void> {
    const at = this.deps.clock().toISOString();
    const hour = at.slice(0, 13);
    const client = origin.clientAddress === undefined ? null : addressKey(origin.clientAddress);
    const name = username.length > auditDefaults.failedSignInNameChars ? `${username.slice(0, auditDefaults.failedSignInNameChars)}…` : username;
    const stored = await this.deps.storage.transaction(async ({ auditEvents }) => {
      const again = async (key: string) => {
        const known = await auditEvents.findAggregated(key);
        return known && (await auditEvents.countAgain(known.id, withName(known.changes, name)));
      };
      const own = JSON.stringify(['login_failed', hour, client ?? '']);
      const overflow = JSON.stringify(['login_failed', hour, null]);
      const counted = (await again(own)) ?? (await again(overflow));
      if (counted) return counted;
      const bound = auditDefaults.failedSignInClientsPerHour;
      const from = `${hour}:00:00.000Z`;
      const to = new Date(Date.parse(from) + 3600_000).toISOString();
      const full = (await auditEvents.countBetween('login_failed', from, to, bound)) >= bound;
      const event: AuditEventInsert = {
        at,
        actor_kind: 'user',
        actor_id: null,
        // The first name tried: an admin filtering on a user's name finds a guess at it that opened the hour.
        actor_name: name,
        via: origin.via,
        client_address: full ? null : client,
        // One request id cannot stand for the many the count covers.
        request_id: null,
        action: 'login_failed',
        resource_type: null,
        resource_id: null,
        resource_name: null,
        changes: withName(null, name),
        outcome: 'failure',
      };
      // Another replica may have made it meanwhile: the upsert then counts this one in it.
      return auditEvents.appendAggregated(event, full ? overflow : own);
    });
    this.told(stored);
  }

  /**
   * GET /audit_events: admins only, newest first unless `sort_by` says otherwise; `count` exact
   * unless `countIsLowerBound` (docs/decisions/186-history-list-counts.md), which is not part of the body.
   */
  async list(principal: Principal, raw: RawQuery): Promise<{ count: number; audit_events: AuditEvent[]; countIsLowerBound: boolean }> {
    authorizeAdmin(principal, 'audit_events', 'index', 'read the audit log');
    const page = await this.deps.storage.auditEvents.list(newestFirst(parseListQuery(raw, auditEventListSpec), 'at'));
    return { count: page.count, audit_events: page.items.map(presentAuditEvent), countIsLowerBound: page.countIsLowerBound === true };
  }

  /** Deletes events older than `before`, a batch at a time; resolves how many. */
  async purgeBefore(before: string): Promise<number> {
    return purgeInBatches((limit) => this.deps.storage.auditEvents.purge(before, limit));
  }

  /** Deletes failed sign-ins older than `before` (their retention is their own, shorter one). */
  async purgeFailedSignInsBefore(before: string): Promise<number> {
    return purgeInBatches((limit) => this.deps.storage.auditEvents.purge(before, limit, 'login_failed'));
  }

  private insert(principal: Principal, note: AuditNote): AuditEventInsert {
    return {
      at: this.deps.clock().toISOString(),
      ...actorOf(principal),
      ...originColumns(principal.origin),
      action: note.action,
      resource_type: note.resource?.type ?? null,
      resource_id: note.resource?.id ?? null,
      resource_name: note.resource?.name ?? null,
      changes: note.changes ?? null,
      outcome: note.outcome ?? 'success',
    };
  }

  private told(record: AuditEventRecord): void {
    try {
      this.onRecorded(presentAuditEvent(record));
    } catch {
      // The event is stored; a failing log sink must not fail the change it records.
    }
  }
}

/** The names a failed sign-in event has seen, with `name` added while fewer than the sample's size. */
function withName(changes: AuditChanges | null, name: string): AuditChanges {
  const seen = changes?.['usernames'];
  const names = seen !== undefined && seen !== secretChange && Array.isArray(seen.to) ? (seen.to as string[]) : [];
  if (names.includes(name) || names.length >= auditDefaults.failedSignInNamesKept) return { usernames: { from: null, to: names } };
  return { usernames: { from: null, to: [...names, name] } };
}

/** Runs a bounded purge until it deletes less than a batch, letting other work in between batches. */
export async function purgeInBatches(purge: (limit: number) => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await purge(purgeBatchSize);
    total += deleted;
    if (deleted < purgeBatchSize) return total;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
