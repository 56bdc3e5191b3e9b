import { hash } from 'node:crypto';
import type { Context } from 'hono';
import type { ContentfulStatusCode, StatusCode } from 'hono/utils/http-status';
import type { AppEnv } from './env.js';
import { requestHeader } from './request-header.js';
import { responseHeaders } from './common-headers.js';

function matches(ifNoneMatch: string | undefined, tag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === tag);
}

/**
 * Sends a body with a strong ETag on GET (and HEAD), answering 304 to a matching
 * If-None-Match. The tag is hashed from the text as it is serialised, which costs a few
 * microseconds, where hashing a finished Response in a middleware costs hundreds.
 */
export function respond(
  c: Context<AppEnv>,
  text: string,
  contentType: string,
  status: ContentfulStatusCode = 200,
  extraHeaders?: Record<string, string>,
): Response {
  const headers = responseHeaders(c, extraHeaders);
  headers['Content-Type'] = contentType;
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return new Response(text, { status, headers });
  const tag = `"${hash('sha1', text, 'base64url')}"`;
  headers['ETag'] = tag;
  if (status === 200 && matches(requestHeader(c, 'if-none-match'), tag)) return new Response(null, { status: 304, headers });
  return new Response(text, { status, headers });
}

export function respondJson(c: Context<AppEnv>, body: unknown, status: ContentfulStatusCode = 200, extraHeaders?: Record<string, string>): Response {
  return respond(c, JSON.stringify(body), 'application/json', status, extraHeaders);
}

/** 204 and other answers without a body, with the common headers. */
export function respondEmpty(c: Context<AppEnv>, status: StatusCode, extraHeaders: Record<string, string> = {}): Response {
  return new Response(null, { status, headers: responseHeaders(c, extraHeaders) });
}
