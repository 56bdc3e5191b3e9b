import type { CoreDeps } from './core-deps.js';
import { unauthenticated, type AuthService, type AuthenticateHooks, type SignInExtras } from './auth-service.js';
import { isSecondFactorPrompt } from './totp-service.js';
import { auditResource } from './audit-trail.js';
import { calledFrom, type CallOrigin, type Principal } from '../scopes/principal.js';
import type { AuditTrail } from './audit-trail.js';
import type { AuditVia } from '../domain/audit-event.js';
import type { AccessLimits, RateLimitDecision } from '../ports/rate-limiter.js';
import { DomainError, isDomainError } from '../errors/domain-error.js';
import { recovering, whenReady, type MaybePromise } from '../ports/maybe-promise.js';
import { makeEvent } from '../domain/events.js';
import { addressKey } from '../security/client-address-key.js';
import { claimedIdentity, type Credential, type PasswordCredential, type SessionCredential, type UnreadableCredential } from '../security/credential.js';

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
  /** Which host took it, for the audit log of sign-ins (REST unless said). */
  readonly via?: AuditVia;
  /** The answer's request id, where the host has one. */
  readonly requestId?: string;
}

/** A request that presents a credential, as its host parsed it (undefined: none sent). */
export interface CredentialRequest<C extends Credential | undefined = Credential | undefined> extends AccessRequest {
  readonly credential: C;
}

/** A sign-in or login: a user's name and password, or what the host could not read of them. */
export type LoginRequest = CredentialRequest<PasswordCredential | UnreadableCredential>;

function tooMany(decision: RateLimitDecision, what: string): DomainError {
  const retryAfter = Math.max(1, Math.ceil(decision.resetMs / 1000));
  return new DomainError('rate_limited', `${what}; retry after ${retryAfter} s`, {
    retryAfter,
    details: { rate_limit: [{ error: 'invalid', count: decision.limit }] },
  });
}

const noHooks: AuthenticateHooks = {};

/** Where a request is counted from: its address, an IPv6 one by its /64 (one host commonly holds a whole /64). */
const clientKey = (request: AccessRequest) => addressKey(request.address);

function originOf(request: AccessRequest): CallOrigin {
  return { via: request.via ?? 'rest', clientAddress: request.address, ...(request.requestId === undefined ? {} : { requestId: request.requestId }) };
}

/**
 * A refused credential. The prompt for a second factor is not one: the password was right and
 * the client is asked for a code (a wrong code is a failure, under the same lockout).
 */
const isUnauthenticated = (error: unknown) => isDomainError(error) && error.code === 'unauthenticated' && !isSecondFactorPrompt(error);

/**
 * Authentication with its throttling, the same for every host: each credential has its
 * budget, each address its budget while it has no valid credential (and for every password
 * check), and ten failed authentications a minute for one address and claimed user lock that
 * user out from that address, even with the right password next. An address is counted by
 * `addressKey`: an IPv6 one by its /64, an IPv4-mapped one as its IPv4 address. Refusals are DomainErrors
 * (`rate_limited` with `retryAfter`, `unauthenticated`, `unavailable`).
 */
export class AccessService {
  constructor(
    private readonly deps: CoreDeps,
    private readonly auth: AuthService,
    private readonly limits: AccessLimits,
    private readonly audit: AuditTrail,
  ) {}

  /** A request to a path that needs no credential: charged to its address. */
  guardPublicRequest(request: AccessRequest): MaybePromise<void> {
    return this.chargeAddress(request, 'rate limit exceeded');
  }

  /** The caller of a request that needs a credential, charged to the credential's budget. */
  authenticateRequest(request: CredentialRequest): MaybePromise<Principal> {
    // Answered at once for a remembered credential on in-memory budgets (nearly every request).
    const principal = this.checked(request, (hooks) => this.auth.authenticate(request.credential, hooks));
    return whenReady(principal, (known) => whenReady(this.chargeCredential(request, known), () => known));
  }

  /**
   * A console sign-in: the principal, and the session credential the host keeps in place of
   * the password (each later call presents it, and it ends with the user or its password).
   */
  async signIn(request: LoginRequest, extras: SignInExtras = {}): Promise<{ principal: Principal; session: SessionCredential }> {
    const { credential } = request;
    const { recoveryCodeUsed, ...signedIn } = await this.checked(request, (hooks) =>
      credential.kind === 'password' ? this.auth.startSession(credential, hooks, extras) : Promise.reject(unauthenticated(credential.reason)),
    );
    await this.chargeCredential(request, signedIn.principal);
    await this.signedIn(request, signedIn.principal, recoveryCodeUsed);
    return signedIn;
  }

  /** The audit of a sign-in, and of the recovery code it spent. */
  private async signedIn(request: AccessRequest, principal: Principal, recoveryCodeUsed: boolean): Promise<void> {
    const who = calledFrom(principal, originOf(request));
    if (recoveryCodeUsed && principal.kind === 'user') {
      await this.audit.record(who, { action: 'recovery_code_used', resource: auditResource('users', principal.userId, principal.username), changes: null });
    }
    await this.audit.record(who, { action: 'login', resource: null, changes: null });
  }

  /**
   * A signed token for a user's name and password (JWT mode), under the failed-login
   * throttle. The host has charged the request to its address already, as for every request
   * to a public path (guardPublicRequest).
   */
  async login(request: LoginRequest, extras: SignInExtras = {}): Promise<{ token: string; expires_at: string }> {
    const { credential } = request;
    const attempt = (hooks: AuthenticateHooks) =>
      credential.kind === 'password' ? this.auth.login(credential, hooks, extras) : Promise.reject(unauthenticated(credential.reason));
    const { principal, recoveryCodeUsed, ...token } = await this.checked(request, attempt, { addressCharged: true, lockedOut: 'too many failed logins' });
    await this.signedIn(request, principal, recoveryCodeUsed);
    return token;
  }

  /**
   * Runs one authentication under the lockout and the address budget: a guessed password
   * locks its user out from this address, even with the right one next, and a password check
   * (argon2) is paid for from the address's budget before it runs, so guesses beyond the
   * budget cost a counter, not a hash. Bearer values (256-bit keys, signed tokens) cannot be
   * guessed, so a valid one is never refused for the failures of others sharing the address.
   */
  private checked<T>(
    request: CredentialRequest,
    attempt: (hooks: AuthenticateHooks) => MaybePromise<T>,
    { addressCharged = false, lockedOut = 'too many failed authentications' } = {},
  ): MaybePromise<T> {
    const { credential } = request;
    // Who and from where are worked out only when a lockout or a failure needs them: a known
    // key or a remembered password (nearly every request) reads neither.
    const failureKey = () => `${clientKey(request)}|${claimedIdentity(credential)}`;
    let charged = addressCharged;
    const failed = async (error: unknown): Promise<never> => {
      if (isUnauthenticated(error)) {
        if (credential) await this.recordFailure(request, failureKey(), claimedIdentity(credential));
        // A wrong password is a failed sign-in, whatever the host (a wrong key or token is not).
        if (credential?.kind === 'password') await this.audit.loginFailed(originOf(request), credential.username);
        if (!charged) await this.chargeAddress(request, 'rate limit exceeded for this address');
      }
      throw error;
    };
    if (credential?.kind !== 'password') return recovering(() => attempt(noHooks), failed);
    const hooks: AuthenticateHooks = {
      beforePasswordCheck: async () => {
        if (charged) return;
        charged = true;
        await this.chargeAddress(request, 'rate limit exceeded for this address');
      },
      address: clientKey(request),
    };
    return whenReady(this.refuseLockedOut(request, failureKey(), lockedOut), () => recovering(() => attempt(hooks), failed));
  }

  /**
   * Each credential has its budget, and a key's requests are charged to its owner's as well:
   * minting more keys does not multiply what one user may send.
   */
  private chargeCredential(request: AccessRequest, principal: Principal): MaybePromise<void> {
    const what = 'rate limit exceeded for this credential';
    const { perCredential } = this.limits;
    if (principal.kind === 'user') return whenReady(perCredential.consume(`user:${principal.userId}`), (own) => this.show(request, own, what));
    const { ownerUserId } = principal;
    return whenReady(perCredential.consume(`key:${principal.keyId}`), (own) => {
      if (ownerUserId === null) return this.show(request, own, what);
      return whenReady(perCredential.consume(`user:${ownerUserId}`), (owner) => {
        // The budget closer to its end is the one to show.
        if (!owner.allowed) this.show(request, owner, "rate limit exceeded for this key's user");
        else this.show(request, owner.remaining < own.remaining ? owner : own, what);
      });
    });
  }

  /** Reports a decision and throws 429 when it refuses. */
  private show(request: AccessRequest, decision: RateLimitDecision, what: string): void {
    request.onRateLimit?.(decision);
    if (!decision.allowed) throw tooMany(decision, what);
  }

  private chargeAddress(request: AccessRequest, what: string): MaybePromise<void> {
    return whenReady(this.limits.perAddress.consume(`address:${clientKey(request)}`), (decision) => this.show(request, decision, what));
  }

  private refuseLockedOut(request: AccessRequest, failureKey: string, what: string): MaybePromise<void> {
    return whenReady(this.limits.authFailures.peek(failureKey), (blocked) => {
      if (!blocked.allowed) this.show(request, blocked, what);
    });
  }

  private async recordFailure(request: AccessRequest, failureKey: string, who: string): Promise<void> {
    request.onAuthFailure?.();
    const decision = await this.limits.authFailures.consume(failureKey);
    // The failure that spends the budget starts the lockout: announced once, not per refusal.
    if (decision.allowed && decision.remaining === 0) {
      const message = `${this.limits.authFailures.limit} failed authentications for ${who} from ${clientKey(request)} within a minute`;
      this.deps.events.publish(makeEvent('auth_failures_repeated', message, this.deps.clock(), { type: 'client', name: clientKey(request) }));
    }
    // An allowed failure leaves the address's decision as the one shown.
    if (!decision.allowed) this.show(request, decision, 'too many failed authentications');
  }
}
