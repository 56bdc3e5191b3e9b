import type { MiddlewareHandler } from 'hono';
import type { Core } from '@dms/core';
import type { AppEnv } from '../http/env.js';

/** Every /api/v2 path but the public ones (DESIGN §4) needs a credential. */
export function authenticate(core: Core, publicPaths: ReadonlySet<string>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (publicPaths.has(c.req.path)) return next();
    c.set('principal', await core.auth.authenticate(c.req.header('authorization')));
    return next();
  };
}
