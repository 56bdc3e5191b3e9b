import { isDomainError, type DomainError } from '../errors/domain-error.js';

/**
 * What a core call answered, as a word a test can compare: `ok`, or the DomainError's code
 * (`forbidden`, `not_found`, …), the same code each host maps to its own status.
 */
export function outcomeOf(call: Promise<unknown>): Promise<string> {
  return call.then(
    () => 'ok',
    (error: unknown) => (isDomainError(error) ? error.code : `not a DomainError: ${String(error)}`),
  );
}

/** The DomainError a core call was refused with; fails the test when it was not refused so. */
export async function refusalOf(call: Promise<unknown>): Promise<DomainError> {
  const error = await call.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!isDomainError(error)) throw new Error(`expected a DomainError, got ${error === undefined ? 'an answer' : String(error)}`);
  return error;
}
