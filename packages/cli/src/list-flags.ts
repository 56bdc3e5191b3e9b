import { CliError } from './cli-error.js';

/**
 * A flag's value as an equality filter of the list contract: `=` first, so a value that begins
 * like an operator (`~`, `>`, `!=`) is still matched as written.
 */
export function equalTo(value: string | undefined): string[] | undefined {
  return value === undefined ? undefined : [`=${value}`];
}

/** A flag whose value must be one of a few words: refused with the words, rather than listing nothing. */
export function oneOf<T extends string>(flag: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined || (allowed as readonly string[]).includes(value)) return value as T | undefined;
  throw new CliError(`--${flag} '${value}' must be one of ${allowed.join(', ')}`);
}

/** The list query of the rows whose id is among `ids` (nulls aside), all on one page: a table names what its rows point at in one call. */
export function idsAmong(ids: ReadonlyArray<number | null>): Record<string, string[]> {
  const distinct = [...new Set(ids.filter((id): id is number => id !== null))];
  return { id: [`><${distinct.join('|')}`], per_page: [String(Math.max(distinct.length, 1))] };
}

/** `--limit N` and `--offset N` of a list in id order, passed to the core as the REST query has them (it checks the bounds). */
export const pageFlags = { limit: { type: 'string' }, offset: { type: 'string' } } as const;

export function pageOf(values: { limit?: string | undefined; offset?: string | undefined }): { query: Record<string, string[]>; offset: number } {
  const query: Record<string, string[]> = {};
  if (values.limit !== undefined) query['limit'] = [values.limit];
  if (values.offset !== undefined) query['offset'] = [values.offset];
  // The core refuses an offset that is not a whole number before anything is listed.
  return { query, offset: /^\d+$/.test(values.offset ?? '') ? Number(values.offset) : 0 };
}
