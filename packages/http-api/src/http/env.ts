import type { Principal } from '@dms/core';
import type { RequestIdVariables } from 'hono/request-id';

export interface AppEnv {
  Variables: RequestIdVariables & {
    principal: Principal;
    /** Written with the body by the respond helpers (http/respond.ts). */
    responseHeaders: Record<string, string>;
  };
}
