import type { CoreDeps } from './core-deps.js';
import { auditResource, describeChanges, type AuditTrail } from './audit-trail.js';
import type { Principal } from '../scopes/principal.js';
import type { TrapRecord } from '../ports/storage.js';
import { authorize, canSeeTrapPassphrases } from '../scopes/scope-check.js';
import { parseInput } from '../validation/zod-details.js';
import { DomainError } from '../errors/domain-error.js';
import {
  checkSeverityBand,
  checkTrapNotification,
  normalizeTrapNotification,
  parseManager,
  trapCreateSchema,
  trapUpdateSchema,
  trapWarnings,
  trapV3FieldNames,
  type Trap,
  type TrapNotification,
} from '../domain/trap.js';
import { trapListSpec } from '../domain/trap.js';
import { parseListQuery, type RawQuery } from '../list-query/parse-list-query.js';
import { findByNumericId } from './resolve-ref.js';
import { makeEvent } from '../domain/events.js';
import type { TrapAllowedHosts, TrapSender } from '../ports/notifier.js';
import type { HostPolicy } from '../security/host-policy.js';

/**
 * A target as a caller sees it: the passphrases only with `traps / get_password` (explicit-only,
 * as share passwords), and the warnings of an allowed but weak choice in `messages`.
 */
export function presentTrap({ id, auth_passphrase, priv_passphrase, ...fields }: TrapRecord, withPassphrases = false): Trap {
  const messages = trapWarnings(fields);
  return {
    snmp_trap_id: String(id),
    ...fields,
    ...(withPassphrases ? { auth_passphrase, priv_passphrase } : {}),
    ...(messages.length > 0 ? { messages } : {}),
  };
}

/** 422 unless the merged record can notify (versions, notify_type, the v3 user and what its level needs). */
function assertNotification(record: TrapNotification, sent: Partial<TrapNotification>): void {
  const problem = checkTrapNotification(record, sent);
  if (problem) throw DomainError.invalid(problem.details, problem.messages);
}

/** v3 without a level is authPriv: the safe default, whose missing protocols and passphrases the 422 names. */
function withDefaultLevel<T extends Partial<TrapNotification>>(input: T, version: TrapNotification['version']): T {
  return version === 'v3' && input.security_level == null ? { ...input, security_level: 'authPriv' } : input;
}

const notificationFields = ['notify_type', ...trapV3FieldNames] as const;
const v3Nulls = { security_name: null, security_level: null, auth_protocol: null, auth_passphrase: null, priv_protocol: null, priv_passphrase: null };

function assertBand(low: number, high: number): void {
  const problem = checkSeverityBand(low, high);
  if (problem) throw DomainError.invalid(problem, [`severity_low (${low}) must not exceed severity_high (${high})`]);
}

/**
 * Trap targets obey `share_test_allowed_hosts` as share tests do: a manager outside the list
 * is refused when a target is saved, and checked again, against the addresses the trap is sent
 * to, whenever a trap or a test trap goes out (the list may have changed since).
 */
/** A trap target has no name: events name it by its manager. */
const trapAudit = (trap: Pick<TrapRecord, 'id' | 'manager'>) => auditResource('traps', trap.id, trap.manager);
/** The community and the passphrases are the target's credentials: recorded as changed, never with a value. */
const trapSecrets = ['community', 'auth_passphrase', 'priv_passphrase'];

export class TrapService {
  constructor(
    private readonly deps: CoreDeps,
    private readonly audit: AuditTrail,
    private readonly sender: TrapSender | undefined,
    private readonly onSendError: (error: unknown) => void,
    /** `share_test_allowed_hosts` as it is now. */
    private readonly hostPolicy: () => Promise<HostPolicy>,
  ) {}

  /** Where a trap may go now: for every send (the dispatcher's too). */
  async allowedHosts(): Promise<TrapAllowedHosts> {
    const policy = await this.hostPolicy();
    return { allows: (host, addresses) => policy.allowsResolved(host, addresses) };
  }

  /**
   * POST /snmp/traps/{id}/test: sends a test trap to this target now, whatever its
   * activation and band. The send runs detached; a failure is reported, never thrown.
   */
  async test(principal: Principal, ref: string): Promise<Trap> {
    authorize(principal, 'traps', 'test');
    const trap = await this.get(ref);
    await this.#checkManager(trap.manager);
    if (!this.sender) throw new DomainError('unavailable', 'the SNMP notifier is not running', { retryAfter: 30 });
    const event = makeEvent('test_trap', `test trap requested for target ${trap.id}`, this.deps.clock(), { type: 'snmp_trap', id: trap.id });
    const sender = this.sender;
    await this.audit.record(principal, { action: 'test', resource: trapAudit(trap), changes: null });
    this.allowedHosts()
      .then((allowedHosts) => sender.send(trap, event, allowedHosts))
      .catch(this.onSendError);
    return presentTrap(trap);
  }

  /** 422 on `manager` unless `share_test_allowed_hosts` allows its host now. */
  async #checkManager(manager: string): Promise<void> {
    const { host } = parseManager(manager);
    if (await (await this.hostPolicy()).allows(host)) return;
    throw new DomainError('validation', `manager host ${host} is not among the share_test_allowed_hosts of this server; an admin can add it in the settings`, {
      details: { manager: [{ error: 'forbidden', value: manager }] },
    });
  }

  async get(ref: string): Promise<TrapRecord> {
    return findByNumericId(ref, 'snmp_trap_id', (id) => this.deps.storage.traps.get(id));
  }

  async list(principal: Principal, raw: RawQuery): Promise<{ count: number; traps: Trap[] }> {
    authorize(principal, 'traps', 'index');
    const page = await this.deps.storage.traps.list(parseListQuery(raw, trapListSpec));
    const withPassphrases = canSeeTrapPassphrases(principal);
    return { count: page.count, traps: page.items.map((trap) => presentTrap(trap, withPassphrases)) };
  }

  async show(principal: Principal, ref: string): Promise<Trap> {
    authorize(principal, 'traps', 'show');
    return presentTrap(await this.get(ref), canSeeTrapPassphrases(principal));
  }

  async create(principal: Principal, body: unknown): Promise<Trap> {
    authorize(principal, 'traps', 'create');
    const parsed = parseInput(trapCreateSchema, body);
    const input = withDefaultLevel(parsed, parsed.version);
    assertBand(input.severity_low, input.severity_high);
    const record = { ...v3Nulls, ...definedFields(input) } as typeof input & TrapNotification;
    assertNotification(record, parsed);
    await this.#checkManager(input.manager);
    return this.audit.change(principal, async (stores) => {
      const created = await stores.traps.create(normalizeTrapNotification(record));
      return {
        result: presentTrap(created, canSeeTrapPassphrases(principal)),
        audit: { action: 'create', resource: trapAudit(created), changes: describeChanges(null, created, input, trapSecrets) },
      };
    });
  }

  async update(principal: Principal, ref: string, body: unknown): Promise<Trap> {
    authorize(principal, 'traps', 'update');
    const sent = parseInput(trapUpdateSchema, body);
    const current = await this.get(ref);
    const patch = withDefaultLevel(sent, sent.version ?? current.version);
    assertBand(patch.severity_low ?? current.severity_low, patch.severity_high ?? current.severity_high);
    const moves = patch.manager !== undefined && patch.manager !== current.manager;
    // An edit that does not move the target is not refused: one saved before the list was narrowed can still be deactivated.
    if (moves) await this.#checkManager(patch.manager!);
    // As a share's password (docs/decisions/037-stored-passwords-follow-their-target.md): a passphrase is never replayed to a new manager by
    // a caller who could not read it; it must be sent again.
    const forgets: Partial<TrapNotification> = {};
    if (moves && !canSeeTrapPassphrases(principal)) {
      if (patch.auth_passphrase === undefined && current.auth_passphrase !== null) forgets.auth_passphrase = null;
      if (patch.priv_passphrase === undefined && current.priv_passphrase !== null) forgets.priv_passphrase = null;
    }
    const merged = normalizeTrapNotification({ ...current, ...definedFields(patch), ...forgets });
    // a target whose passphrases were just forgotten is saved: it sends nothing until they are set again
    assertNotification({ ...merged, ...pickSet(current, forgets) }, sent);
    // What the update writes: the fields sent, and every notification field the merge settled
    // (a level lowered or a version left drops what it no longer uses; a move forgets passphrases).
    const settled = Object.fromEntries(notificationFields.filter((field) => merged[field] !== current[field]).map((field) => [field, merged[field]]));
    const write = { ...definedFields(patch), ...settled };
    return this.audit.change(principal, async (stores) => {
      const updated = await stores.traps.update(current.id, write);
      if (!updated) throw DomainError.notFound('snmp_trap_id', ref);
      return {
        result: presentTrap(updated, canSeeTrapPassphrases(principal)),
        audit: { action: 'update', resource: trapAudit(updated), changes: describeChanges(current, updated, { ...sent, ...settled }, trapSecrets) },
      };
    });
  }

  async destroy(principal: Principal, ref: string): Promise<void> {
    authorize(principal, 'traps', 'destroy');
    const current = await this.get(ref);
    await this.audit.change(principal, async (stores) => ({
      result: await stores.traps.delete(current.id),
      audit: { action: 'delete', resource: trapAudit(current), changes: null },
    }));
  }
}

/** The fields a partial update sets (undefined: left as stored). */
function definedFields<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** The stored values of the fields about to be forgotten: the check sees the target as its caller configured it. */
function pickSet(current: TrapRecord, forgets: Partial<TrapNotification>): Partial<TrapNotification> {
  return Object.fromEntries(Object.keys(forgets).map((field) => [field, current[field as keyof TrapNotification]]));
}
