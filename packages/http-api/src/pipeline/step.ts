import type { Context } from 'hono';
import type { AppEnv } from '../http/env.js';

export type Next = () => Response | Promise<Response>;

/**
 * One stage of the request pipeline: it answers the request itself or passes it on.
 * Unlike Hono middleware it returns the Response it passes back, so a route is one handler
 * to Hono and takes its router's fast path.
 */
export type Step = (c: Context<AppEnv>, next: Next) => Response | Promise<Response>;

/** A route's own handler, below every step. */
export type RouteHandler = (c: Context<AppEnv>) => Response | Promise<Response>;
