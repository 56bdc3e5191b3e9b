import type { Context } from 'hono';
import { compileCorsRules, type CorsRule, type CorsRuleFinder } from '@dms/core';
import { type EventBus } from '@dms/core/runtime';
import type { AppEnv } from '../http/env.js';
import { requestHeader } from '../http/request-header.js';
import { respondEmpty } from '../http/respond.js';
import { setCorsHeaders } from '../http/common-headers.js';
import { refuseAmbientCrossOrigin } from './cross-origin.js';
import type { Next, Step } from './step.js';

/**
 * The answer headers a page may read beyond the safelisted ones: `Location` is where a started
 * job is followed, `Dms-Released-Shares` how many shares a deleted pool released, `Dms-Jobs-Scope` whether
 * GET /jobs listed every job or only the credential's own, `Dms-Count` whether a history list's
 * `count` is exact or a lower bound.
 */
const exposed =
  'X-Request-Id, ETag, Location, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, WWW-Authenticate, Dms-Released-Shares, Dms-Jobs-Scope, Dms-Count';
const cacheMs = 2_000;

/**
 * CORS from the stored rules: `Access-Control-Allow-*` only when a rule matches the
 * origin, path and method. Rules are cached for two seconds and dropped at once when this
 * process changes them, so an edit applies without a restart on every replica.
 * A request without an Origin header passes straight on, unless a browser says it came from
 * another site with a Basic credential (cross-origin.ts): the same refusal as below.
 */
export function corsFromRules(loadRules: () => Promise<CorsRule[]>, events: EventBus): Step {
  // Compiled when loaded, not per request: every request with an Origin runs the finder.
  let cached: { findRule: CorsRuleFinder<CorsRule>; until: number } | undefined;
  events.subscribe((event) => {
    if (event.name === 'configuration_changed' && event.resource?.type === 'cors_rules') cached = undefined;
  });
  const ruleFinder = async () => {
    if (!cached || cached.until < Date.now()) cached = { findRule: compileCorsRules(await loadRules()), until: Date.now() + cacheMs };
    return cached.findRule;
  };

  const withOrigin = async (c: Context<AppEnv>, next: Next, origin: string): Promise<Response> => {
    const preflightMethod = c.req.method === 'OPTIONS' ? requestHeader(c, 'access-control-request-method') : undefined;
    const method = preflightMethod ?? c.req.method;
    const findRule = await ruleFinder();
    const rule = findRule(origin, c.req.path, method === 'HEAD' ? 'GET' : method);
    if (preflightMethod !== undefined) {
      // A preflight carries no credentials: it is answered here, before authentication.
      const allow: Record<string, string> = rule
        ? {
            'Access-Control-Allow-Origin': origin,
            'Access-Control-Allow-Methods': rule.methods.join(', '),
            'Access-Control-Allow-Headers': requestHeader(c, 'access-control-request-headers') ?? 'Authorization, Content-Type',
            'Access-Control-Max-Age': '600',
          }
        : {};
      return respondEmpty(c, 204, { Vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers', ...allow });
    }
    // Set before the route runs, so error answers carry them too.
    setCorsHeaders(c, rule ? { Vary: 'Origin', 'Access-Control-Allow-Origin': origin, 'Access-Control-Expose-Headers': exposed } : { Vary: 'Origin' });
    refuseAmbientCrossOrigin(c, origin, rule !== undefined);
    return next();
  };
  return (c, next) => {
    const origin = requestHeader(c, 'origin');
    if (origin) return withOrigin(c, next, origin);
    refuseAmbientCrossOrigin(c, undefined, false);
    return next();
  };
}
