import type { Context } from 'hono';
import { DomainError, isDomainError, makeEvent, type Core, type Principal, type RateLimitDecision, type RateLimiter } from '@dms/core';
import type { AppEnv } from '../http/env.js';
import { requestHeader } from '../http/request-header.js';
import { peerAddress } from '../rate-limit/client-address.js';
import { setRateLimitHeaders } from '../http/common-headers.js';
import type { Step } from './step.js';

export interface AccessLimits {
  /** Requests per credential (DMS_RATE_LIMIT_PER_MINUTE). */
  perCredential: RateLimiter;
  /** Requests per client address without a valid credential. */
  perAddress: RateLimiter;
  /** Failed authentications per address and user (10 a minute). */
  authFailures: RateLimiter;
}

export interface AccessHooks {
  onAuthFailure?: () => void;
  /** The client's address (the TCP peer, or what trusted proxies forwarded). */
  clientAddress?: (c: Context) => string;
}

function tooMany(c: Context<AppEnv>, decision: RateLimitDecision, what: string): DomainError {
  setRateLimitHeaders(c, decision);
  const retryAfter = Math.max(1, Math.ceil(decision.resetMs / 1000));
  return new DomainError('rate_limited', `${what}; retry after ${retryAfter} s`, { retryAfter, details: { rate_limit: [{ error: 'invalid', count: decision.limit }] } });
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

async function loginIdentity(c: Context): Promise<string> {
  try {
    const body = (await c.req.json()) as { username?: unknown };
    return typeof body.username === 'string' ? `user:${body.username.slice(0, 64)}` : 'none';
  } catch {
    return 'none';
  }
}

/**
 * Authentication with rate limits: every /api/v2 path but the public ones needs a
 * credential; each credential has its budget, each address its budget while it has no
 * valid credential, and ten failures a minute for one address and user mean 429.
 */
export function authenticate(core: Core, publicPaths: ReadonlySet<string>, loginPath: string, limits: AccessLimits, hooks: AccessHooks = {}): Step {
  const clientAddress = hooks.clientAddress ?? peerAddress;
  const recordFailure = async (c: Context, failureKey: string, who: string, address: string) => {
    hooks.onAuthFailure?.();
    const decision = await limits.authFailures.consume(failureKey);
    if (decision.allowed && decision.remaining === 0) {
      core.deps.events.publish(
        makeEvent('auth_failures_repeated', `${limits.authFailures.limit} failed authentications for ${who} from ${address} within a minute`, core.deps.clock(), {
          type: 'client',
          name: address,
        }),
      );
    }
    if (!decision.allowed) throw tooMany(c, decision, 'too many failed authentications');
  };

  const publicPath: Step = async (c, next) => {
    const address = clientAddress(c);
    const decision = await limits.perAddress.consume(`address:${address}`);
    setRateLimitHeaders(c, decision);
    if (!decision.allowed) throw tooMany(c, decision, 'rate limit exceeded');
    if (c.req.path !== loginPath || c.req.method !== 'POST') return next();
    const who = await loginIdentity(c);
    const failureKey = `${address}|${who}`;
    const blocked = await limits.authFailures.peek(failureKey);
    if (!blocked.allowed) throw tooMany(c, blocked, 'too many failed logins');
    try {
      return await next();
    } catch (error) {
      if (isDomainError(error) && error.code === 'unauthenticated') await recordFailure(c, failureKey, who, address);
      throw error;
    }
  };

  /** Charges the address's budget; throws 429 once it is spent. */
  const chargeAddress = async (c: Context<AppEnv>, address: string) => {
    const decision = await limits.perAddress.consume(`address:${address}`);
    setRateLimitHeaders(c, decision);
    if (!decision.allowed) throw tooMany(c, decision, 'rate limit exceeded for this address');
  };

  const refused = async (c: Context<AppEnv>, authorization: string | undefined, error: unknown, charged: boolean): Promise<never> => {
    if (isDomainError(error) && error.code === 'unauthenticated') {
      const address = clientAddress(c);
      if (authorization) {
        const who = claimedIdentity(authorization);
        await recordFailure(c, `${address}|${who}`, who, address);
      }
      if (!charged) await chargeAddress(c, address);
    }
    throw error;
  };

  return async (c, next) => {
    if (publicPaths.has(c.req.path)) return publicPath(c, next);
    const authorization = requestHeader(c, 'authorization');
    // A guessed password locks its user out from this address, even with the right one next.
    // Bearer values (256-bit keys, signed tokens) cannot be guessed, so a valid one is never
    // refused for the failures of others sharing the address; only failed attempts get 429.
    if (authorization !== undefined && basicScheme.test(authorization)) {
      const who = claimedIdentity(authorization);
      const blocked = await limits.authFailures.peek(`${clientAddress(c)}|${who}`);
      if (!blocked.allowed) throw tooMany(c, blocked, 'too many failed authentications');
    }
    let principal: Principal;
    let charged = false;
    // A password check (argon2) is paid for from the address's budget before it runs, so
    // guesses beyond the budget are refused at the cost of a counter, not of a hash.
    const beforePasswordCheck = async () => {
      charged = true;
      await chargeAddress(c, clientAddress(c));
    };
    try {
      principal = await core.auth.authenticate(authorization, { beforePasswordCheck });
    } catch (error) {
      return refused(c, authorization, error, charged);
    }
    c.set('principal', principal);
    const decision = await limits.perCredential.consume(principal.kind === 'user' ? `user:${principal.userId}` : `key:${principal.keyId}`);
    setRateLimitHeaders(c, decision);
    if (!decision.allowed) throw tooMany(c, decision, 'rate limit exceeded for this credential');
    return next();
  };
}
