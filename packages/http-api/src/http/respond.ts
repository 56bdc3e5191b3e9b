import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

function matches(ifNoneMatch: string | undefined, tag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === tag);
}

/**
 * Sends a body with a strong ETag on GET (and HEAD), answering 304 to a matching
 * If-None-Match. The tag is hashed from the text as it is serialised, which costs a few
 * microseconds, where hashing a finished Response in a middleware costs hundreds.
 */
export function respond(c: Context, text: string, contentType: string, status: ContentfulStatusCode = 200): Response {
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return c.body(text, status, { 'Content-Type': contentType });
  const tag = `"${createHash('sha1').update(text).digest('base64url')}"`;
  if (status === 200 && matches(c.req.header('if-none-match'), tag)) return c.body(null, 304, { ETag: tag });
  return c.body(text, status, { 'Content-Type': contentType, ETag: tag });
}

export function respondJson(c: Context, body: unknown, status: ContentfulStatusCode = 200): Response {
  return respond(c, JSON.stringify(body), 'application/json', status);
}
