import { bodyLimit } from 'hono/body-limit';
import type { Context } from 'hono';
import { DomainError } from '@dms/core';
import { errorResponse } from '../http/error-response.js';
import { requestHeader } from '../http/request-header.js';
import type { Step } from './step.js';

/**
 * 413 for a body over `maxBytes`, by its Content-Length or, when chunked, as it is read; the
 * answer says `Connection: close`, so what the client still sends is never parsed as a request.
 */
export function limitBody(maxBytes: number): Step {
  const tooLarge = (c: Context) =>
    errorResponse(
      c,
      new DomainError('payload_too_large', `request body is larger than ${maxBytes} bytes`, { details: { body: [{ error: 'too_long', count: maxBytes }] } }),
      { Connection: 'close' },
    );
  const limitChunked = bodyLimit({ maxSize: maxBytes, onError: tooLarge });
  return async (c, next) => {
    // Node's own headers decide a sized body: touching Hono's `c.req.raw` for it would build a
    // web stream over the socket that starts reading a body no step may ever want (a request
    // refused for its credential), at the cost of buffering it.
    const length = requestHeader(c, 'content-length');
    if (length !== undefined && requestHeader(c, 'transfer-encoding') === undefined) return Number(length) > maxBytes ? tooLarge(c) : next();
    let passed: Response | undefined;
    const refused = await limitChunked(c, async () => {
      passed = await next();
    });
    // Hono's middleware answers with onError's Response, or runs next and returns nothing.
    const response = refused ?? passed;
    if (!response) throw new Error('the body limit answered nothing');
    return response;
  };
}
