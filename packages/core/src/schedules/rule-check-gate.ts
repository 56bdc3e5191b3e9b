import { DomainError } from '../errors/domain-error.js';
import type { Principal } from '../scopes/principal.js';

/** After a rule of a caller's ran out of time, that caller's next check waits this long. */
export const slowRuleCooldownMs = 10_000;
/** Checks waiting for the API's rule worker, all callers together, before more are refused (503). */
export const maxQueuedRuleChecks = 32;

/**
 * Who pays for a rule check: a key's whole tree counts as its owning user (a key may make keys),
 * a key of the system's as itself.
 */
function callerOf(principal: Principal): string {
  if (principal.kind === 'user') return `user:${principal.userId}`;
  return principal.ownerUserId !== null ? `user:${principal.ownerUserId}` : `key:${principal.keyId}`;
}

/**
 * Rate limit of the rules callers submit (docs/decisions/108-rule-checks-cost-their-caller-only.md):
 * one check at a time per caller, a pause after a rule that ran out of time, and a bound on
 * what waits in all. A slow rule a second from one caller then holds the API's worker about a
 * tenth of the time, and never the scheduler's, which has a worker of its own.
 */
export class RuleCheckGate {
  readonly #running = new Set<string>();
  readonly #cooling = new Map<string, number>();

  constructor(
    private readonly clock: () => Date,
    private readonly queued: () => number,
  ) {}

  async run<T>(principal: Principal, check: () => Promise<T>, ranOutOfTime: (error: unknown) => boolean): Promise<T> {
    const caller = callerOf(principal);
    const now = this.clock().getTime();
    const until = this.#cooling.get(caller) ?? 0;
    if (until > now) throw refused(`a rule of yours took too long to evaluate: try again in ${Math.ceil((until - now) / 1000)} s`, until - now);
    if (this.#running.has(caller)) throw refused('a rule of yours is being checked: send one at a time', 1_000);
    if (this.queued() >= maxQueuedRuleChecks) throw new DomainError('unavailable', 'too many rules are waiting to be checked; try again', { retryAfter: 1 });
    this.#running.add(caller);
    try {
      return await check();
    } catch (error) {
      if (ranOutOfTime(error)) {
        if (this.#cooling.size > 10_000) this.#cooling.clear();
        this.#cooling.set(caller, this.clock().getTime() + slowRuleCooldownMs);
      }
      throw error;
    } finally {
      this.#running.delete(caller);
    }
  }
}

function refused(message: string, waitMs: number): DomainError {
  return new DomainError('rate_limited', message, { retryAfter: Math.max(1, Math.ceil(waitMs / 1000)), details: { rrule: [{ error: 'invalid' }] } });
}
