import type { Context } from 'hono';
import { apiBasePath } from '../contracts/api-base-path.js';
import { requestHeader } from './request-header.js';

/**
 * The browser's session after single sign-on (docs/decisions/177-oidc-sign-in.md): JWT mode's
 * token in an `HttpOnly`, `SameSite=Lax` cookie scoped to the API, `Secure` when the request came
 * over https. Read only when no Authorization header is sent, and only a JWT: a key never rides
 * in a cookie.
 */
export const sessionCookieName = 'dms_session';

const jwtShape = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** The cookie's lifetime is the token's (`jwt_ttl_seconds`). */
export function sessionCookie(c: Context, token: string, maxAgeSeconds: number): string {
  const secure = new URL(c.req.url).protocol === 'https:' ? '; Secure' : '';
  return `${sessionCookieName}=${token}; Path=${apiBasePath}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure}`;
}

/** The session cookie's token, when the request carries one that can be a JWT. */
export function sessionFromCookie(c: Context): string | undefined {
  const header = requestHeader(c, 'cookie');
  if (header === undefined || header.length > 16_384) return undefined;
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=');
    if (at < 0 || pair.slice(0, at).trim() !== sessionCookieName) continue;
    const value = pair.slice(at + 1).trim();
    return jwtShape.test(value) ? value : undefined;
  }
  return undefined;
}
