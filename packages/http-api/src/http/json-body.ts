import { requestHeader } from './request-header.js';
import type { Context } from 'hono';
import { DomainError } from '@dms/core';

/**
 * Reads a JSON request body for the core to validate. Malformed JSON and a wrong
 * Content-Type are 400; whether it is an object is the core's parseInput decision.
 */
export async function readJsonBody(c: Context): Promise<unknown> {
  const type = requestHeader(c, 'content-type');
  if (type !== undefined && !/^application\/(?:[\w.+-]+\+)?json\b/i.test(type)) {
    throw new DomainError('bad_request', 'Content-Type must be application/json', {
      details: { 'content-type': [{ error: 'invalid', value: type }] },
    });
  }
  const text = await c.req.text();
  if (text.trim() === '') {
    throw new DomainError('bad_request', 'a JSON request body is required', { details: { body: [{ error: 'blank' }] } });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new DomainError('bad_request', 'malformed JSON in request body', { details: { body: [{ error: 'invalid' }] } });
  }
}
