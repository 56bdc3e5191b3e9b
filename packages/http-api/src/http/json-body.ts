import { requestHeader } from './request-header.js';
import type { Context } from 'hono';
import { DomainError } from '@dms/core';
import { maxJsonDepth, nestsDeeperThan } from './json-depth.js';

export interface JsonBodyBounds {
  /** Longest body text read for this route, below the server's body limit (a login needs 4 KiB). */
  maxLength?: number;
}

const tooLong = (maxLength: number) =>
  new DomainError('payload_too_large', `request body is longer than ${maxLength} bytes`, { details: { body: [{ error: 'too_long', count: maxLength }] } });

/** Longest Content-Type value read: `application/json; charset=utf-8` with room to spare. */
const maxContentTypeLength = 256;

/**
 * `application/json`, with parameters if any (a `charset` only as UTF-8, the one JSON has). Not
 * `application/*+json`: no client of dms sends one, and one declared type is one rule to audit.
 */
function declaresJson(type: string): boolean {
  if (type.length > maxContentTypeLength) return false;
  const [essence, ...parameters] = type.split(';');
  if (essence!.trim().toLowerCase() !== 'application/json') return false;
  return parameters.every((parameter) => {
    const equals = parameter.indexOf('=');
    if (equals === -1) return parameter.trim() === '';
    if (parameter.slice(0, equals).trim().toLowerCase() !== 'charset') return true;
    return (
      parameter
        .slice(equals + 1)
        .trim()
        .replace(/^"(.*)"$/, '$1')
        .toLowerCase() === 'utf-8'
    );
  });
}

/** Longest Content-Type value quoted back in a 415. */
const maxQuotedType = 100;

/**
 * A body must be declared JSON (issue 40 item 2): a body without a type, or sent as
 * `text/plain`, is what a page elsewhere can send with no CORS preflight, so it is never read
 * as JSON. 415 naming the required type, before a byte of the body is read.
 */
function requireJsonContentType(c: Context): void {
  const type = requestHeader(c, 'content-type');
  if (type !== undefined && declaresJson(type)) return;
  throw new DomainError('unsupported_media_type', 'a request body must be sent with Content-Type: application/json', {
    details: { 'content-type': [type === undefined ? { error: 'blank' } : { error: 'invalid', value: type.slice(0, maxQuotedType) }] },
  });
}

/**
 * Reads a JSON request body for the core to validate. A body not declared `application/json`
 * is 415; malformed JSON and nesting deeper than maxJsonDepth are 400; whether it is an object
 * is the core's parseInput decision. Only routes call this: no body is parsed before its
 * request is authenticated and routed.
 */
export async function readJsonBody(c: Context, bounds: JsonBodyBounds = {}): Promise<unknown> {
  requireJsonContentType(c);
  if (bounds.maxLength !== undefined && Number(requestHeader(c, 'content-length') ?? 0) > bounds.maxLength) throw tooLong(bounds.maxLength);
  const text = await readBodyText(c);
  if (text.trim() === '') {
    throw new DomainError('bad_request', 'a JSON request body is required', { details: { body: [{ error: 'blank' }] } });
  }
  if (bounds.maxLength !== undefined && text.length > bounds.maxLength) throw tooLong(bounds.maxLength);
  if (nestsDeeperThan(text)) {
    throw new DomainError('bad_request', `JSON in request body nests deeper than ${maxJsonDepth} levels`, {
      details: { body: [{ error: 'too_long', count: maxJsonDepth }] },
    });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new DomainError('bad_request', 'malformed JSON in request body', { details: { body: [{ error: 'invalid' }] } });
  }
}

/**
 * The client's end of a request body that never arrived whole: the connection was reset or
 * closed while it was read. The client's doing, not the server's: whatever its error code
 * (Node reports ECONNRESET, as a database driver does), it is never a storage outage.
 */
export class ClientAbortError extends Error {
  override readonly name = 'ClientAbortError';
  constructor(cause: unknown) {
    super('the client closed the connection before its request body was read', { cause });
  }
}

export function isClientAbort(error: unknown): error is ClientAbortError {
  return error instanceof Error && error.name === 'ClientAbortError';
}

async function readBodyText(c: Context): Promise<string> {
  try {
    return await c.req.text();
  } catch (error) {
    // A TypeError on a live connection is a body read twice or locked: our bug, left a 500.
    if (error instanceof TypeError && !c.req.raw.signal.aborted) throw error;
    throw new ClientAbortError(error);
  }
}
