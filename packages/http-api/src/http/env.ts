import type { Principal } from '@dms/core';
import type { LoginRequestFactory } from '../pipeline/access.js';
import type { CommonHeaders } from './common-headers.js';

export interface AppEnv {
  Variables: {
    /** Set by the authenticate step for a request with valid credentials. */
    principal: Principal;
    /** Set by the authenticate step on public paths: the login route's request to the access service. */
    loginRequest: LoginRequestFactory;
    /** Started by the observe step (request id), filled by later steps, written with the body (http/respond.ts). */
    commonHeaders: CommonHeaders;
  };
}
