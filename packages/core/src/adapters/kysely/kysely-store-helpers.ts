import { DomainError } from '../../errors/domain-error.js';
import type { DialectQuirks } from './kysely-dialect-quirks.js';

/** Runs a write and turns a unique violation into a `taken` conflict on `attribute`. */
export async function uniqueWrite<T>(quirks: DialectQuirks, attribute: string, value: string | number | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (quirks.isUniqueViolation(error)) throw DomainError.taken(attribute, value ?? '');
    throw error;
  }
}

/** Drops keys whose value is undefined, so a partial update touches only what was sent. */
export function definedOnly<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as Partial<T>;
}
