import { currentCredentialSchema, loginRequestSchema, tokenSchema } from '@dms/core';
import { defineContract, type RouteContract } from './route-contract.js';
import { currentCredentialExample, loginExample, tokenExample } from './examples.js';

/** The operations that need no scope: the public JWT login, and what the caller's own credential may do. */
export const authContracts: readonly RouteContract[] = [
  defineContract({
    method: 'post',
    path: '/auth/login',
    tag: 'admin',
    summary: 'Log in with a user’s credentials and get a JWT (JWT mode only)',
    description:
      'Needs no credential. Answers a token to send as `Authorization: Bearer <token>`; bad credentials are 401, and JWT mode off is 403. Repeated failures for one user are 429.',
    public: true,
    body: loginRequestSchema,
    bodyExample: loginExample,
    success: { status: 200, description: 'a signed token', schema: tokenSchema, example: tokenExample },
  }),
  defineContract({
    method: 'get',
    path: '/api_keys/current',
    tag: 'admin',
    summary: 'What the caller’s own credential may do',
    description: 'Any valid credential may call it: a user, or an API key with its scopes.',
    success: { status: 200, description: 'the caller', schema: currentCredentialSchema, example: currentCredentialExample },
  }),
];
