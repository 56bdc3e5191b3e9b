import type { CoreDeps } from './core-deps.js';
import type { UserPrincipal, Principal } from '../scopes/principal.js';
import { auditResource, type AuditTrail } from './audit-trail.js';
import type { UserRecord } from '../ports/storage.js';
import { DomainError } from '../errors/domain-error.js';
import { parseInput } from '../validation/zod-details.js';
import { authorizeAdmin } from '../scopes/scope-check.js';
import { totpConfirmRequestSchema, totpDisableRequestSchema, type SecondFactor, type TotpEnrollment, type TotpStatus } from '../domain/totp.js';
import { newRecoveryCodes, newTotpSecret, normalizeRecoveryCode, totpCodeStep } from '../security/totp-codes.js';
import { resolveRef } from './resolve-ref.js';
import type { RateLimiter } from '../ports/rate-limiter.js';

/** 401 for a sign-in whose password was right and whose second factor is missing: the client asks for a code. */
export function secondFactorNeeded(): DomainError {
  return new DomainError('unauthenticated', 'a TOTP code is needed: send totp_code, or one of your recovery codes as recovery_code', {
    details: { totp_code: [{ error: 'blank' }] },
  });
}

/** Whether `error` is the prompt for a second factor rather than a failed attempt. */
export function isSecondFactorPrompt(error: DomainError): boolean {
  return error.code === 'unauthenticated' && error.details['totp_code']?.[0]?.error === 'blank';
}

function wrongFactor(field: 'totp_code' | 'recovery_code', message: string): DomainError {
  return new DomainError('unauthenticated', message, { details: { [field]: [{ error: 'invalid' }] } });
}

function ownUser(principal: Principal): UserPrincipal {
  if (principal.kind === 'user' && principal.userId > 0) return principal;
  throw new DomainError('forbidden', 'a second factor is a signed-in user’s own: an API key or the system cannot turn it on or off', {
    details: { principal: [{ error: 'forbidden' }] },
  });
}

const userAudit = (user: Pick<UserPrincipal, 'userId' | 'username'>) => auditResource('users', user.userId, user.username);

/**
 * TOTP second factor for local users (docs/decisions/178-totp-second-factor.md): enroll, confirm
 * with a code (which hands out recovery codes once), turn off with a code or a recovery code, or
 * reset by an admin. The secret is sealed at rest; recovery codes are kept as keyed digests.
 * A code's time step is recorded when accepted, so a code is taken once, on any replica.
 */
export class TotpService {
  constructor(
    private readonly deps: CoreDeps,
    private readonly audit: AuditTrail,
    /** A change here changes how a user signs in: remembered Basic credentials are dropped everywhere. */
    private readonly onCredentialsChanged: () => void,
    /**
     * The failed-authentication budget (10 a minute): wrong codes sent to turn TOTP off count
     * there too, so a stolen session cannot guess its way to turning the second factor off.
     */
    private readonly failures: RateLimiter,
  ) {}

  async status(principal: Principal): Promise<TotpStatus> {
    const totp = await this.deps.storage.userTotp.get(ownUser(principal).userId);
    return {
      enabled: totp?.enabled ?? false,
      pending: totp !== undefined && !totp.enabled,
      recovery_codes_left: totp?.enabled ? totp.recovery_codes.length : 0,
    };
  }

  /** Whether a user signs in with a second factor. */
  async isOn(userId: number): Promise<boolean> {
    return (await this.deps.storage.userTotp.get(userId))?.enabled ?? false;
  }

  /** A new secret for the caller, not in force until confirmed; enrolling again replaces an unconfirmed one. */
  async enroll(principal: Principal): Promise<TotpEnrollment> {
    const user = ownUser(principal);
    const { secret, uri } = await newTotpSecret(user.username);
    if (!(await this.deps.storage.userTotp.beginEnrollment(user.userId, this.deps.secrets.seal(secret)))) {
      throw new DomainError('conflict', 'TOTP is on already: turn it off first (POST /auth/totp/disable) to enroll a new secret', {
        details: { totp: [{ error: 'taken' }] },
      });
    }
    return { secret, otpauth_uri: uri };
  }

  /** Turns the enrolled secret on with a valid code; answers the recovery codes, shown this once. */
  async confirm(principal: Principal, body: unknown): Promise<{ recovery_codes: string[] }> {
    const user = ownUser(principal);
    const { totp_code } = parseInput(totpConfirmRequestSchema, body);
    const totp = await this.deps.storage.userTotp.get(user.userId);
    if (!totp || totp.enabled) {
      throw new DomainError('conflict', totp ? 'TOTP is on already' : 'nothing to confirm: enroll first (POST /auth/totp)', {
        details: { totp: [{ error: totp ? 'taken' : 'not_found' }] },
      });
    }
    const step = await totpCodeStep(this.deps.secrets.open(totp.secret), totp_code, this.deps.clock(), totp.last_step);
    if (step === undefined) throw DomainError.invalid({ totp_code: [{ error: 'invalid' }] }, ['totp_code is not the code your authenticator app shows now']);
    const codes = newRecoveryCodes();
    const digests = codes.map((code) => this.recoveryDigest(user.userId, code));
    await this.audit.change(user, async (stores) => {
      if (!(await stores.userTotp.enable(user.userId, step, digests)))
        throw DomainError.invalid({ totp_code: [{ error: 'invalid' }] }, ['totp_code was used already']);
      return { result: undefined, audit: { action: 'totp_enabled', resource: userAudit(user), changes: null } };
    });
    this.onCredentialsChanged();
    return { recovery_codes: codes };
  }

  /** Turns the caller's second factor off, with a current code or a recovery code. */
  async disable(principal: Principal, body: unknown): Promise<void> {
    const user = ownUser(principal);
    const factor = parseInput(totpDisableRequestSchema, body);
    if (!(await this.isOn(user.userId))) throw DomainError.notFound('totp', user.username);
    const failureKey = `totp-disable|user:${user.userId}`;
    const budget = await this.failures.peek(failureKey);
    if (!budget.allowed) {
      const retryAfter = Math.max(1, Math.ceil(budget.resetMs / 1000));
      throw new DomainError('rate_limited', `too many wrong codes; retry after ${retryAfter} s`, {
        retryAfter,
        details: { rate_limit: [{ error: 'invalid', count: budget.limit }] },
      });
    }
    try {
      await this.check(user.userId, factor);
    } catch (error) {
      if (error instanceof DomainError && !isSecondFactorPrompt(error)) await this.failures.consume(failureKey);
      throw error;
    }
    await this.remove(user, { userId: user.userId, username: user.username }, null);
  }

  /** An admin turns a user's second factor off (a lost phone and lost recovery codes). */
  async reset(principal: Principal, ref: string): Promise<void> {
    authorizeAdmin(principal, 'users', 'update', 'reset a user’s second factor');
    const { users } = this.deps.storage;
    const target: UserRecord = await resolveRef(
      ref,
      'user_id',
      (id) => users.get(id),
      (name) => users.findByUsername(name),
    );
    if (!(await this.deps.storage.userTotp.get(target.id))) throw DomainError.notFound('totp', target.username);
    await this.remove(principal, { userId: target.id, username: target.username }, { reset: { from: null, to: 'by an admin' } });
  }

  private async remove(
    principal: Principal,
    user: Pick<UserPrincipal, 'userId' | 'username'>,
    changes: Record<string, { from: null; to: string }> | null,
  ): Promise<void> {
    await this.audit.change(principal, async (stores) => ({
      result: await stores.userTotp.delete(user.userId),
      audit: { action: 'totp_disabled', resource: userAudit(user), changes },
    }));
    this.onCredentialsChanged();
  }

  /**
   * A sign-in's second factor: nothing for a user without TOTP; otherwise a code not taken
   * before, or an unused recovery code (which is then gone). Resolves whether a recovery code
   * was used, for the audit log. Throws 401 (`secondFactorNeeded` when none was sent).
   */
  async check(userId: number, factor: SecondFactor): Promise<{ recoveryCodeUsed: boolean }> {
    const totp = await this.deps.storage.userTotp.get(userId);
    if (!totp?.enabled) return { recoveryCodeUsed: false };
    if (factor.totp_code !== undefined) {
      const step = await totpCodeStep(this.deps.secrets.open(totp.secret), factor.totp_code, this.deps.clock(), totp.last_step);
      if (step === undefined || !(await this.deps.storage.userTotp.acceptStep(userId, step))) {
        throw wrongFactor('totp_code', 'wrong or already used TOTP code: wait for the next one your app shows');
      }
      return { recoveryCodeUsed: false };
    }
    if (factor.recovery_code !== undefined) {
      if (!(await this.deps.storage.userTotp.useRecoveryCode(userId, this.recoveryDigest(userId, factor.recovery_code)))) {
        throw wrongFactor('recovery_code', 'wrong or already used recovery code');
      }
      return { recoveryCodeUsed: true };
    }
    throw secondFactorNeeded();
  }

  /** A recovery code's keyed digest, bound to its user: a database alone tells nothing of the codes. */
  private recoveryDigest(userId: number, code: string): string {
    return this.deps.secrets.fingerprint(`totp-recovery:${userId}:${normalizeRecoveryCode(code)}`);
  }
}
