import { DomainError } from '../errors/domain-error.js';
import type { MaybePromise } from '../ports/maybe-promise.js';
import { maxId, noControlChars } from '../domain/common.js';

const numericText = /^[1-9]\d{0,9}$/;
/** A path segment that can be a stored id: a positive integer no larger than any id column holds. */
const isNumericId = (ref: string) => numericText.test(ref) && Number(ref) <= maxId;

/**
 * Whether a path segment can be a stored name. Names refuse control characters, so one with
 * any (`%00` above all, which PostgreSQL cannot even compare) names nothing: 404 without a query.
 */
export function canBeName(ref: string): boolean {
  return noControlChars.test(ref);
}

/**
 * Path parameters take a numeric id or a name (docs/decisions/055-names.md). A numeric text is tried as
 * an id first, then as a name, so a resource named "42" stays reachable.
 */
export async function resolveRef<T>(
  ref: string,
  attribute: string,
  byId: (id: number) => MaybePromise<T | undefined>,
  byName: (name: string) => Promise<T | undefined>,
): Promise<T> {
  const found = (isNumericId(ref) ? await byId(Number(ref)) : undefined) ?? (canBeName(ref) ? await byName(ref) : undefined);
  if (found === undefined) throw DomainError.notFound(attribute, ref);
  return found;
}

/** For ids that are never names (`snmp_trap_id`): anything but a positive integer is 404. */
export function parseNumericId(ref: string, attribute: string): number {
  if (!isNumericId(ref)) throw DomainError.notFound(attribute, ref);
  return Number(ref);
}

/** A record addressed by a numeric id only; 404 `attribute` for a bad or unknown id. */
export async function findByNumericId<T>(ref: string, attribute: string, byId: (id: number) => MaybePromise<T | undefined>): Promise<T> {
  const found = await byId(parseNumericId(ref, attribute));
  if (found === undefined) throw DomainError.notFound(attribute, ref);
  return found;
}
