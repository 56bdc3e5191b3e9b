import { DomainError } from '../errors/domain-error.js';
import type { RawQuery } from './list-query.js';
import { listDefaults } from '../defaults.js';

const { pageSize: defaultPageSize, maxPageSize } = listDefaults;

/** Both schemes on every list (docs/decisions/014-one-list-contract.md): this product family's clients send limit/offset. */
export const paginationParameters = ['limit', 'offset', 'page', 'per_page'] as const;

/** The last page whose offset, `(page - 1) * per_page`, is still an exact integer at per_page 100. */
export const maxPage = Math.floor(Number.MAX_SAFE_INTEGER / maxPageSize);

interface IntegerRule {
  min: number;
  max: number;
  /** For a value that is not a whole number (`1.5`, `-1`, `abc`, empty). */
  notInteger: string;
  outOfRange: string;
}

function between(name: string, min: number, max: number): IntegerRule {
  return { min, max, notInteger: `${name} must be an integer between ${min} and ${max}`, outOfRange: `${name} must be between ${min} and ${max}` };
}

const rules = {
  limit: between('limit', 1, maxPageSize),
  per_page: between('per_page', 1, maxPageSize),
  page: between('page', 1, maxPage),
  offset: {
    min: 0,
    max: Number.MAX_SAFE_INTEGER,
    notInteger: 'offset must be an integer of 0 or more',
    outOfRange: `offset must be an integer between 0 and ${Number.MAX_SAFE_INTEGER}`,
  },
} as const satisfies Record<(typeof paginationParameters)[number], IntegerRule>;

/** The one value of a parameter that may be given once. */
export function singleValue(raw: RawQuery, name: string): string | undefined {
  const values = raw[name];
  if (values === undefined || values.length === 0) return undefined;
  if (values.length > 1) throw DomainError.badRequest(name, `${name} may be given once`);
  return values[0];
}

function integerParam(raw: RawQuery, name: keyof typeof rules): number | undefined {
  const text = singleValue(raw, name);
  if (text === undefined) return undefined;
  const rule = rules[name];
  // Digits only: `1e2`, `0x10`, ` 5` and `+5` are what Number() would take but no client means.
  if (!/^\d+$/.test(text)) throw DomainError.badRequest(name, rule.notInteger);
  const value = Number(text);
  if (value < rule.min || value > rule.max) throw DomainError.badRequest(name, rule.outOfRange);
  return value;
}

/** `limit`/`offset` or `page`/`per_page`, never both; 20 items by default, 100 at most. */
export function parsePagination(raw: RawQuery): { limit: number; offset: number } {
  const hasLimitOffset = raw['limit'] !== undefined || raw['offset'] !== undefined;
  const hasPage = raw['page'] !== undefined || raw['per_page'] !== undefined;
  if (hasLimitOffset && hasPage) throw DomainError.badRequest('page', 'use limit/offset or page/per_page, not both');
  if (hasLimitOffset) {
    return { limit: integerParam(raw, 'limit') ?? defaultPageSize, offset: integerParam(raw, 'offset') ?? 0 };
  }
  const perPage = integerParam(raw, 'per_page') ?? defaultPageSize;
  const page = integerParam(raw, 'page') ?? 1;
  return { limit: perPage, offset: (page - 1) * perPage };
}
