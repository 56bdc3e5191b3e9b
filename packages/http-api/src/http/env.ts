import type { Principal } from '@dms/core';

export interface AppEnv {
  Variables: {
    /** Set by the observe middleware; echoed as X-Request-Id. */
    requestId: string;
    principal: Principal;
    /** Written with the body by the respond helpers (http/respond.ts). */
    responseHeaders: Record<string, string>;
  };
}
