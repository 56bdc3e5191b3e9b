import { DomainError, isDomainError } from './domain-error.js';
import { isStorageUnavailable } from './storage-unavailable.js';

/**
 * Anything thrown, as the DomainError a host answers with: every host (REST, tRPC, CLI)
 * maps errors the same way, and an unknown error never carries internal detail out.
 * A host sorts out its own transport errors (a malformed body, a dropped client) first.
 */
export function toDomainError(error: unknown): DomainError {
  if (isDomainError(error)) return error;
  if (isStorageUnavailable(error)) return new DomainError('unavailable', 'storage is unavailable, try again shortly', { retryAfter: 5 });
  return new DomainError('internal', 'internal server error');
}
