import type { Principal } from '@dms/core';
import type { CommonHeaders } from './common-headers.js';

export interface AppEnv {
  Variables: {
    /** Set by the observe middleware; echoed as X-Request-Id. */
    requestId: string;
    principal: Principal;
    /** Written with the body by the respond helpers (http/respond.ts). */
    commonHeaders: CommonHeaders;
  };
}
