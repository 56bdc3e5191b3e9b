import type { TRPC_ERROR_CODE_KEY } from '@trpc/server';
import type { DomainErrorCode } from '@dms/core';

/**
 * The one table from domain error codes to tRPC error codes. A field validation (422 in
 * REST) is BAD_REQUEST here, as tRPC clients expect for bad input; the field details travel
 * in the error's `data` (see trpc.ts), with the domain code, so a renderer can tell them apart.
 */
export const trpcCodeByDomainCode = {
  bad_request: 'BAD_REQUEST',
  unauthenticated: 'UNAUTHORIZED',
  forbidden: 'FORBIDDEN',
  not_found: 'NOT_FOUND',
  method_not_allowed: 'METHOD_NOT_SUPPORTED',
  conflict: 'CONFLICT',
  payload_too_large: 'PAYLOAD_TOO_LARGE',
  // tRPC has no 414: an over-long request is bad input to it.
  uri_too_long: 'BAD_REQUEST',
  unsupported_media_type: 'UNSUPPORTED_MEDIA_TYPE',
  validation: 'BAD_REQUEST',
  rate_limited: 'TOO_MANY_REQUESTS',
  internal: 'INTERNAL_SERVER_ERROR',
  unavailable: 'SERVICE_UNAVAILABLE',
} as const satisfies Record<DomainErrorCode, TRPC_ERROR_CODE_KEY>;
