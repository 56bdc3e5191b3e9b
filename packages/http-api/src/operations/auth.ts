import { currentCredentialSchema, loginRequestSchema, parseInput, tokenSchema } from '@dms/core';
import { passwordCredential } from '@dms/core/runtime';
import { respondJson } from '../http/respond.js';
import { readJsonBody } from '../http/json-body.js';
import { defineOperation } from './operation.js';
import { currentCredentialExample, loginExample, tokenExample } from '../contracts/examples.js';

/** A login body holds a name and a password: nothing longer is read. */
const maxLoginBodyLength = 4096;

/** The operations that need no scope: the public JWT login, and what the caller's own credential may do. */
export const authOperations = [
  defineOperation({
    operationId: 'login',
    sdkSample: `// A client that sends the token of POST /auth/login:
const admin = await login('http://127.0.0.1:8080', 'admin', 'admin-password');
// or only the token: await dms.auth.login('admin', 'admin-password')`,
    handle: async (c, core) => {
      const { username, password, totp_code, recovery_code } = parseInput(loginRequestSchema, await readJsonBody(c, { maxLength: maxLoginBodyLength }));
      const request = c.get('loginRequest')(passwordCredential(username, password));
      const client = { userAgent: c.req.header('user-agent'), ip: request.address };
      return respondJson(c, await core.access.login(request, { factor: { totp_code, recovery_code }, client }));
    },
    method: 'post',
    path: '/auth/login',
    tag: 'admin',
    summary: 'Log in with a user’s credentials and get a JWT (JWT mode only)',
    description:
      'Needs no credential. Answers a token to send as `Authorization: Bearer <token>`; bad credentials are 401, and JWT mode off is 403. Repeated failures for one user are 429. A user with TOTP on also sends `totp_code` (or `recovery_code`, good once): without one the answer is 401 with `details.totp_code` `[{"error": "blank"}]`, the prompt to ask for a code. Each login is a session (`GET /sessions`) that `DELETE /sessions/{id}` ends.',
    public: true,
    body: loginRequestSchema,
    bodyExample: loginExample,
    success: { status: 200, description: 'a signed token', schema: tokenSchema, example: tokenExample },
  }),
  defineOperation({
    operationId: 'showCurrentApiKey',
    sdkSample: `const me = await dms.apiKeys.current();`,
    handle: async (c, core) => respondJson(c, await core.apiKeys.current(c.get('principal'))),
    method: 'get',
    path: '/api_keys/current',
    tag: 'admin',
    summary: 'What the caller’s own credential may do',
    description: 'Any valid credential may call it: a user, or an API key with its scopes.',
    success: { status: 200, description: 'the caller', schema: currentCredentialSchema, example: currentCredentialExample },
  }),
];
