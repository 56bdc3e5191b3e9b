import type { CoreDeps } from './core-deps.js';
import type { AuthService } from './auth-service.js';
import type { Principal } from '../scopes/principal.js';
import type { AccessLimits, RateLimitDecision } from '../ports/rate-limiter.js';
import { DomainError, isDomainError } from '../errors/domain-error.js';
import { makeEvent } from '../events/catalogue.js';

/** One request as a host sees it, whatever its transport. */
export interface AccessRequest {
  /**
   * The client's address: the TCP peer, a trusted proxy's forwarded address, or a name for IPC.
   * May be a getter: it is read only when a budget, a lockout or a failure needs it.
   */
  readonly address: string;
  /**
   * Told of each budget the request is checked against, refusals included; the last one is
   * the one to show (RateLimit-* headers). A callback rather than a field of the result, since
   * errors the service does not make (a wrong password, a storage outage) need it too.
   */
  onRateLimit?: (decision: RateLimitDecision) => void;
  /** Told of each failed authentication, for a metric. */
  onAuthFailure?: () => void;
}

export interface LoginRequest extends AccessRequest {
  /** The login body as sent (`{ username, password }`), unchecked. */
  body: unknown;
}

const basicScheme = /^basic /i;

/** Who a credential claims to be, for throttling guesses at one user from one address. */
function claimedIdentity(authorization: string | undefined): string {
  if (!authorization) return 'none';
  const [scheme = '', value = ''] = authorization.split(' ', 2);
  if (scheme.toLowerCase() !== 'basic') return scheme.toLowerCase() || 'none';
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  return `user:${decoded.slice(0, Math.max(0, decoded.indexOf(':')))}`;
}

function loginIdentity(body: unknown): string {
  const username = typeof body === 'object' && body !== null ? (body as { username?: unknown }).username : undefined;
  return typeof username === 'string' ? `user:${username.slice(0, 64)}` : 'none';
}

function tooMany(decision: RateLimitDecision, what: string): DomainError {
  const retryAfter = Math.max(1, Math.ceil(decision.resetMs / 1000));
  return new DomainError('rate_limited', `${what}; retry after ${retryAfter} s`, {
    retryAfter,
    details: { rate_limit: [{ error: 'invalid', count: decision.limit }] },
  });
}

const isUnauthenticated = (error: unknown) => isDomainError(error) && error.code === 'unauthenticated';

/**
 * Authentication with its throttling, the same for every host: each credential has its
 * budget, each address its budget while it has no valid credential (and for every password
 * check), and ten failed authentications a minute for one address and claimed user lock that
 * user out from that address, even with the right password next. Refusals are DomainErrors
 * (`rate_limited` with `retryAfter`, `unauthenticated`, `unavailable`).
 */
export class AccessService {
  constructor(
    private readonly deps: CoreDeps,
    private readonly auth: AuthService,
    private readonly limits: AccessLimits,
  ) {}

  /** A request to a path that needs no credential: charged to its address. */
  async guardPublicRequest(request: AccessRequest): Promise<void> {
    await this.chargeAddress(request, 'rate limit exceeded');
  }

  /** The caller of a request that needs a credential, charged to the credential's budget. */
  async authenticateRequest(request: AccessRequest & { authorization: string | undefined }): Promise<Principal> {
    const { authorization } = request;
    // Who and from where are worked out only when a lockout or a failure needs them: a known
    // key or a remembered password (nearly every request) reads neither.
    const failureKey = () => `${request.address}|${claimedIdentity(authorization)}`;
    // A guessed password locks its user out from this address, even with the right one next.
    // Bearer values (256-bit keys, signed tokens) cannot be guessed, so a valid one is never
    // refused for the failures of others sharing the address; only failed attempts get 429.
    if (authorization !== undefined && basicScheme.test(authorization)) await this.refuseLockedOut(request, failureKey(), 'too many failed authentications');
    let charged = false;
    // A password check (argon2) is paid for from the address's budget before it runs, so
    // guesses beyond the budget are refused at the cost of a counter, not of a hash.
    const beforePasswordCheck = async () => {
      charged = true;
      await this.chargeAddress(request, 'rate limit exceeded for this address');
    };
    let principal: Principal;
    try {
      principal = await this.auth.authenticate(authorization, { beforePasswordCheck });
    } catch (error) {
      if (isUnauthenticated(error)) {
        if (authorization) await this.recordFailure(request, failureKey(), claimedIdentity(authorization));
        if (!charged) await this.chargeAddress(request, 'rate limit exceeded for this address');
      }
      throw error;
    }
    const decision = await this.limits.perCredential.consume(principal.kind === 'user' ? `user:${principal.userId}` : `key:${principal.keyId}`);
    this.show(request, decision, 'rate limit exceeded for this credential');
    return principal;
  }

  /** A signed token for a user's credentials (JWT mode), under the address and failed-login budgets. */
  async login(request: LoginRequest): Promise<{ token: string; expires_at: string }> {
    await this.guardPublicRequest(request);
    return this.throttleLogin(request, () => this.auth.login(request.body));
  }

  /**
   * Runs a login `attempt` under the failed-login throttle, for a host whose login handler
   * is its own (the REST route): a user locked out from this address is refused before the
   * attempt, and an `unauthenticated` outcome counts as a failure.
   */
  async throttleLogin<T>(request: LoginRequest, attempt: () => Promise<T>): Promise<T> {
    const who = loginIdentity(request.body);
    const failureKey = `${request.address}|${who}`;
    await this.refuseLockedOut(request, failureKey, 'too many failed logins');
    try {
      return await attempt();
    } catch (error) {
      if (isUnauthenticated(error)) await this.recordFailure(request, failureKey, who);
      throw error;
    }
  }

  /** Reports a decision and throws 429 when it refuses. */
  private show(request: AccessRequest, decision: RateLimitDecision, what: string): void {
    request.onRateLimit?.(decision);
    if (!decision.allowed) throw tooMany(decision, what);
  }

  private async chargeAddress(request: AccessRequest, what: string): Promise<void> {
    this.show(request, await this.limits.perAddress.consume(`address:${request.address}`), what);
  }

  private async refuseLockedOut(request: AccessRequest, failureKey: string, what: string): Promise<void> {
    const blocked = await this.limits.authFailures.peek(failureKey);
    if (!blocked.allowed) this.show(request, blocked, what);
  }

  private async recordFailure(request: AccessRequest, failureKey: string, who: string): Promise<void> {
    request.onAuthFailure?.();
    const decision = await this.limits.authFailures.consume(failureKey);
    // The failure that spends the budget starts the lockout: announced once, not per refusal.
    if (decision.allowed && decision.remaining === 0) {
      const message = `${this.limits.authFailures.limit} failed authentications for ${who} from ${request.address} within a minute`;
      this.deps.events.publish(makeEvent('auth_failures_repeated', message, this.deps.clock(), { type: 'client', name: request.address }));
    }
    // An allowed failure leaves the address's decision as the one shown.
    if (!decision.allowed) this.show(request, decision, 'too many failed authentications');
  }
}
