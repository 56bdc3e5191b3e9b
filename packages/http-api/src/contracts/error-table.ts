import type { DomainErrorCode } from '@dms/core';

/** The one table from domain error codes to HTTP statuses. */
export const statusByCode = {
  bad_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  validation: 422,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
} as const satisfies Record<DomainErrorCode, number>;

export type ErrorStatus = (typeof statusByCode)[DomainErrorCode];
