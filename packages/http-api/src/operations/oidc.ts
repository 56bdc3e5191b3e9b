import { z } from 'zod';
import { DomainError, parseOidcCallback, tokenSchema } from '@dms/core';
import type { Core } from '@dms/core/runtime';
import type { Context } from 'hono';
import { respondEmpty, respondJson } from '../http/respond.js';
import { apiBasePath as apiBase } from '../contracts/api-base-path.js';
import type { AppEnv } from '../http/env.js';
import { defineOperation } from './operation.js';
import { sessionCookie } from '../http/session-cookie.js';
import { tokenExample } from '../contracts/examples.js';

const loginPath = '/auth/oidc/login';
const callbackPath = '/auth/oidc/callback';

/** Paths below /api/v2 that need no credential: the provider's browser comes without one. */
export const oidcPublicPaths = [loginPath, callbackPath];

/** The REST sign-in answers JWT mode's token: without JWT mode there is nothing to answer. */
async function refuseWithoutJwtMode(core: Core): Promise<number> {
  const settings = await core.settings.current();
  if (!settings.jwt_enabled) {
    throw new DomainError('forbidden', 'single sign-on through the REST API answers a JWT, and JWT mode is off: enable it with PUT /api/v2/settings', {
      details: { jwt_enabled: [{ error: 'invalid', value: 'false' }] },
    });
  }
  return settings.jwt_ttl_seconds;
}

/**
 * Where the provider sends the browser back: this server's callback, at the address the request
 * reached (the provider must list it among the client's redirect URIs).
 */
function callbackUrl(c: Context<AppEnv>): string {
  return `${new URL(c.req.url).origin}${apiBase}${callbackPath}`;
}

const callbackQuerySchema = z.object({
  code: z.string().optional().describe('the authorization code the provider issued'),
  state: z.string().describe('the state dms sent the provider: each is taken once, within 10 minutes'),
  iss: z.string().optional().describe('the provider’s issuer (RFC 9207), checked when sent'),
  error: z.string().optional().describe('the provider’s refusal, instead of a code'),
  error_description: z.string().optional(),
});

/** Single sign-on through an OpenID provider (issue 46, docs/decisions/177-oidc-sign-in.md). */
export const oidcOperations = [
  defineOperation({
    operationId: 'startOidcLogin',
    sdkSample: `// Where to send the user's browser; the provider sends it back to /auth/oidc/callback.
const signInAt = dms.auth.oidcLoginUrl();`,
    handle: async (c, core) => {
      await refuseWithoutJwtMode(core);
      const url = await core.oidc.start(callbackUrl(c));
      return respondEmpty(c, 302, { Location: url.href, 'Cache-Control': 'no-store' });
    },
    method: 'get',
    path: loginPath,
    tag: 'admin',
    summary: 'Sign in through the OpenID provider (redirects to it)',
    description:
      'Needs no credential. Answers 302 to the provider’s authorization endpoint (authorization code with PKCE S256, `state` and `nonce` kept by dms for 10 minutes). The provider must list `…/api/v2/auth/oidc/callback` of this server among the client’s redirect URIs. Single sign-on off (`oidc_enabled`) or JWT mode off is 403; a provider that cannot be reached is 401 with what went wrong.',
    public: true,
    success: {
      status: 302,
      description: 'to the provider',
      headers: { Location: 'the provider’s authorization URL' },
    },
  }),
  defineOperation({
    operationId: 'finishOidcLogin',
    sdkSample: `// With the address the provider sent the browser back to:
const { token } = await dms.auth.finishOidcLogin('http://127.0.0.1:8080/api/v2/auth/oidc/callback?code=…&state=…');`,
    handle: async (c, core) => {
      const params = parseOidcCallback(new URL(c.req.url).searchParams);
      const ttlSeconds = await refuseWithoutJwtMode(core);
      const { user } = await core.oidc.finish(params, c.get('publicOrigin')());
      const { principal: _principal, ...token } = await core.auth.tokenFor(user, ttlSeconds);
      // The token for a client that reads it, and the same as a cookie for a browser that came here.
      return respondJson(c, token, 200, { 'Cache-Control': 'no-store', 'Set-Cookie': sessionCookie(c, token.token, ttlSeconds) });
    },
    method: 'get',
    path: callbackPath,
    tag: 'admin',
    summary: 'Where the OpenID provider sends the browser back; answers a token',
    description:
      'Needs no credential. Takes the sign-in by its `state` (once: a replayed state is 401), exchanges the code with its PKCE verifier, and verifies the ID token (issuer, audience, expiry, nonce, signature from the provider’s JWKS). The user is found by issuer and subject, or created when `oidc_auto_create` is on, with the role `oidc_role_claim` maps to through `oidc_role_map`. Answers JWT mode’s token, as `POST /auth/login` does, and sets it as the `dms_session` cookie for a browser (`HttpOnly`, `SameSite=Lax`, `Path=/api/v2`, `Secure` over https), which the API accepts when no Authorization header is sent. Every refusal is 401 with its reason.',
    public: true,
    query: callbackQuerySchema,
    success: {
      status: 200,
      description: 'a signed token',
      schema: tokenSchema,
      example: tokenExample,
      headers: { 'Set-Cookie': 'the same token as the `dms_session` cookie' },
    },
  }),
];
