import { bodyLimit } from 'hono/body-limit';
import { DomainError } from '@dms/core';
import { errorResponse } from '../http/error-response.js';
import type { Step } from './step.js';

/** 413 for a body over `maxBytes`, by its Content-Length or, when chunked, as it is read. */
export function limitBody(maxBytes: number): Step {
  const limit = bodyLimit({
    maxSize: maxBytes,
    onError: (c) => errorResponse(c, new DomainError('payload_too_large', `request body is larger than ${maxBytes} bytes`, { details: { body: [{ error: 'too_long', count: maxBytes }] } }), { Connection: 'close' }),
  });
  return async (c, next) => {
    let passed: Response | undefined;
    const refused = await limit(c, async () => {
      passed = await next();
    });
    // Hono's middleware answers with onError's Response, or runs next and returns nothing.
    const response = refused ?? passed;
    if (!response) throw new Error('the body limit answered nothing');
    return response;
  };
}
