import type { Context } from 'hono';
import { DomainError } from '@dms/core';
import { requestHeader } from '../http/request-header.js';
import { sessionFromCookie } from '../http/session-cookie.js';

const unsafeMethods: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * A credential the browser attaches by itself, so a page elsewhere can make it send one: Basic
 * (remembered once the user answered the API's challenge), or the session cookie of single
 * sign-on when no Authorization header is sent (http/session-cookie.ts; other cookies
 * authenticate nothing here); a Bearer key or token is attached only by code that holds it.
 */
function carriesAmbientCredential(c: Context): boolean {
  const authorization = requestHeader(c, 'authorization');
  if (authorization === undefined) return sessionFromCookie(c) !== undefined;
  return authorization.slice(0, 6).toLowerCase() === 'basic ';
}

/**
 * Whether the browser says a page of another origin sent the request. `Sec-Fetch-Site` when the
 * browser sends it (every current one does; it sees the origins as the user does, through any
 * proxy); otherwise `Origin` against the Host the request was sent to (the scheme is left out:
 * a proxy that ends TLS forwards plain HTTP).
 */
function sentFromAnotherOrigin(c: Context, origin: string | undefined): boolean {
  const site = requestHeader(c, 'sec-fetch-site');
  if (site !== undefined) return site !== 'same-origin' && site !== 'none';
  if (origin === undefined) return false;
  try {
    return new URL(origin).host !== (requestHeader(c, 'host') ?? new URL(c.req.url).host).toLowerCase();
  } catch {
    // `null` (a sandboxed page, a redirect across origins) or garbage: not this origin.
    return true;
  }
}

/**
 * Cross-site request forgery (issue 40 item 2): an unsafe method with a Basic credential that a
 * page of another origin made the browser send is refused (403) before the credential is
 * checked, unless a stored CORS rule allows that origin, path and method (`allowedByRule`).
 * A bodiless POST (a scan, a test) needs no preflight, so the JSON-only body rule alone would
 * not stop it. Requests from outside a browser send neither header and pass.
 */
export function refuseAmbientCrossOrigin(c: Context, origin: string | undefined, allowedByRule: boolean): void {
  if (allowedByRule || !unsafeMethods.has(c.req.method)) return;
  if (!carriesAmbientCredential(c) || !sentFromAnotherOrigin(c, origin)) return;
  const from = origin ?? `a ${requestHeader(c, 'sec-fetch-site')} page`;
  throw new DomainError(
    'forbidden',
    `a browser request from ${from} may not use Basic credentials or the session cookie to ${c.req.method} here: no CORS rule allows that origin; add one, or send an API key or token (Authorization: Bearer)`,
    { details: { origin: [{ error: 'forbidden', value: (origin ?? 'unknown').slice(0, 200) }] } },
  );
}
