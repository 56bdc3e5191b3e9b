import { describe, expect, it } from 'vitest';
import { TRPCError } from '@trpc/server';
import { DomainError, type DomainErrorCode } from '@dms/core';
import { trpcCodeByDomainCode } from './error-table.js';
import { asTrpcError, toTrpcError } from './trpc.js';

/** What tRPC hands a middleware when a resolver throws something that is not a TRPCError. */
const thrown = (cause: unknown) => new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause });

describe('DomainError → tRPC code table', () => {
  const expected: Record<DomainErrorCode, string> = {
    bad_request: 'BAD_REQUEST',
    unauthenticated: 'UNAUTHORIZED',
    forbidden: 'FORBIDDEN',
    not_found: 'NOT_FOUND',
    method_not_allowed: 'METHOD_NOT_SUPPORTED',
    conflict: 'CONFLICT',
    payload_too_large: 'PAYLOAD_TOO_LARGE',
    uri_too_long: 'BAD_REQUEST',
    unsupported_media_type: 'UNSUPPORTED_MEDIA_TYPE',
    validation: 'BAD_REQUEST',
    rate_limited: 'TOO_MANY_REQUESTS',
    internal: 'INTERNAL_SERVER_ERROR',
    unavailable: 'SERVICE_UNAVAILABLE',
  };

  it.each(Object.entries(expected))('maps %s to %s, keeping the DomainError as cause', (code, trpcCode) => {
    const domain = new DomainError(code as DomainErrorCode, `a ${code} error`);
    const mapped = toTrpcError(thrown(domain));
    expect(mapped.code).toBe(trpcCode);
    expect(mapped.message).toBe(`a ${code} error`);
    expect(mapped.cause).toBe(domain);
    expect(trpcCodeByDomainCode[code as DomainErrorCode]).toBe(trpcCode);
  });

  it('recognises a DomainError by name, as one that crossed a realm would arrive', () => {
    const foreign = Object.assign(new Error('no such NAS'), { name: 'DomainError', code: 'not_found', details: {}, messages: ['no such NAS'] });
    expect(toTrpcError(thrown(foreign)).code).toBe('NOT_FOUND');
  });

  it('hides an unknown error behind a plain internal error', () => {
    const mapped = toTrpcError(thrown(new Error('SQLITE_CORRUPT at /secret/path')));
    expect(mapped.code).toBe('INTERNAL_SERVER_ERROR');
    expect(mapped.message).toBe('internal server error');
  });

  it("keeps tRPC's own errors (input parsing) as they are", () => {
    const own = new TRPCError({ code: 'BAD_REQUEST', message: 'bad input' });
    expect(toTrpcError(own)).toBe(own);
  });

  it('maps what a subscription throws while streaming the same way', () => {
    expect(asTrpcError(DomainError.notFound('job_id', 'x')).code).toBe('NOT_FOUND');
    expect(asTrpcError(new Error('disk on fire')).message).toBe('internal server error');
  });
});
