import type { CoreDeps } from './core-deps.js';
import { auditResource, describeChanges, type AuditTrail } from './audit-trail.js';
import type { Principal } from '../scopes/principal.js';
import type { TrapRecord } from '../ports/storage.js';
import { authorize } from '../scopes/scope-check.js';
import { parseInput } from '../validation/zod-details.js';
import { DomainError } from '../errors/domain-error.js';
import { checkSeverityBand, parseManager, trapCreateSchema, trapUpdateSchema, type Trap } from '../domain/trap.js';
import { trapListSpec } from '../domain/trap.js';
import { parseListQuery, type RawQuery } from '../list-query/parse-list-query.js';
import { findByNumericId } from './resolve-ref.js';
import { makeEvent } from '../domain/events.js';
import type { TrapAllowedHosts, TrapSender } from '../ports/notifier.js';
import type { HostPolicy } from '../security/host-policy.js';

export function presentTrap({ id, ...fields }: TrapRecord): Trap {
  return { snmp_trap_id: String(id), ...fields };
}

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
/** The community is the target's credential: recorded as changed, never with a value. */
const trapSecrets = ['community'];

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
    return { count: page.count, traps: page.items.map(presentTrap) };
  }

  async show(principal: Principal, ref: string): Promise<Trap> {
    authorize(principal, 'traps', 'show');
    return presentTrap(await this.get(ref));
  }

  async create(principal: Principal, body: unknown): Promise<Trap> {
    authorize(principal, 'traps', 'create');
    const input = parseInput(trapCreateSchema, body);
    assertBand(input.severity_low, input.severity_high);
    await this.#checkManager(input.manager);
    return this.audit.change(principal, async (stores) => {
      const created = await stores.traps.create(input);
      return {
        result: presentTrap(created),
        audit: { action: 'create', resource: trapAudit(created), changes: describeChanges(null, created, input, trapSecrets) },
      };
    });
  }

  async update(principal: Principal, ref: string, body: unknown): Promise<Trap> {
    authorize(principal, 'traps', 'update');
    const patch = parseInput(trapUpdateSchema, body);
    const current = await this.get(ref);
    assertBand(patch.severity_low ?? current.severity_low, patch.severity_high ?? current.severity_high);
    // An edit that does not move the target is not refused: one saved before the list was narrowed can still be deactivated.
    if (patch.manager !== undefined && patch.manager !== current.manager) await this.#checkManager(patch.manager);
    return this.audit.change(principal, async (stores) => {
      const updated = await stores.traps.update(current.id, patch);
      if (!updated) throw DomainError.notFound('snmp_trap_id', ref);
      return {
        result: presentTrap(updated),
        audit: { action: 'update', resource: trapAudit(updated), changes: describeChanges(current, updated, patch, trapSecrets) },
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
