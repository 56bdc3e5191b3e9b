import { currentCredentialSchema, loginRequestSchema, tokenSchema } from '@dms/core';
import { defineContract, type RouteContract } from './route-contract.js';

/** The operations that need no scope: the public JWT login, and what the caller's own credential may do. */
export const authContracts: readonly RouteContract[] = [
  defineContract({
    method: 'post',
    path: '/auth/login',
    tag: 'admin',
    summary: 'Log in with a user’s credentials and get a JWT (JWT mode only)',
    public: true,
    body: loginRequestSchema,
    success: { status: 200, description: 'a signed token', schema: tokenSchema },
    errors: [413, 422],
  }),
  defineContract({
    method: 'get',
    path: '/api_keys/current',
    tag: 'admin',
    summary: 'What the caller’s own credential may do',
    success: { status: 200, description: 'the caller', schema: currentCredentialSchema },
  }),
];
