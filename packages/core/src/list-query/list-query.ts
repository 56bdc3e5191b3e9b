// A parsed, validated list request, ready to compile to SQL by a storage adapter.

/**
 * `boolean` is stored as 0/1 and written `true`/`false` in a filter (`admin=true`). `decimal` is a
 * decimal amount held as text (`12.50`, validation/decimal-amount.ts) that filters and sorts as a
 * number: compared as text, `price=>100` would match `9.00`.
 */
export type FieldType = 'integer' | 'string' | 'boolean' | 'decimal';

export interface ListField {
  type: FieldType;
  nullable?: boolean;
  /** The storage column, when the API name differs (`snmp_trap_id` → `id`). */
  column?: string;
  /**
   * An integer column's range, `[min, max]`: `int32Range` (PostgreSQL `integer`) unless given.
   * A filter value beyond it is 400 rather than a database error.
   */
  range?: readonly [number, number];
  /**
   * A text field's only values (a status, a kind, an action): `=`, `!=`, `><` and `!><` with any
   * other value are a 400 naming them, where a typo would otherwise match nothing, silently.
   */
  oneOf?: readonly string[];
}

/** PostgreSQL `integer`, the type of every id and small counter column. */
export const int32Range = [-2_147_483_648, 2_147_483_647] as const;
/** `bigint` columns (file counts and sizes) as far as a JavaScript number is exact. */
export const safeIntegerRange = [-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER] as const;

/** `ilike` and `not_ilike` are `like` and `not_like` with ASCII letters folded to lower case on both sides (`~*`, `!~*`). */
export type FilterOp = 'eq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte' | 'in' | 'not_in' | 'like' | 'not_like' | 'ilike' | 'not_ilike';

/** The operators that match a text attribute against a `%` / `_` pattern. */
export const patternOps: readonly FilterOp[] = ['like', 'not_like', 'ilike', 'not_ilike'];

export interface Filter {
  /** A storage column taken from the ListSpec, never from the request. */
  field: string;
  op: FilterOp;
  /** `null` only for nullable fields (`pool_id=null`). */
  values: Array<string | number | null>;
  /** A decimal field: the column and the values (decimal text) are compared as numbers. */
  decimal?: boolean;
}

export interface SortKey {
  field: string;
  direction: 'asc' | 'desc';
  /** Whether the column holds nulls: only then does the order need a NULLS clause. */
  nullable: boolean;
  /**
   * Text ordered with ASCII letters folded to lower case (`sort_by=name:ci`): `alpha, Beta, gamma`
   * rather than every capital first. Ties between names equal but for case fall to `id`.
   */
  caseInsensitive?: boolean;
  /** A decimal field (text such as `12.50`) ordered as a number: 9.00 before 100.50. */
  decimal?: boolean;
}

export interface ListQuery {
  limit: number;
  offset: number;
  sort: SortKey[];
  filters: Filter[];
}

/** Query parameters as the HTTP layer reads them: every value of every name. */
export type RawQuery = Readonly<Record<string, readonly string[] | undefined>>;

/**
 * What one list endpoint sorts and filters on. Every list takes both pagination schemes
 * (docs/decisions/014-one-list-contract.md), so pagination is not part of a spec.
 */
export interface ListSpec {
  /** Every attribute the list sorts on; secrets are never listed here. */
  fields: Readonly<Record<string, ListField>>;
  /** Filters accepted on this endpoint (a subset of `fields`). */
  filterable: readonly string[];
}

export interface ListPage<T> {
  count: number;
  items: T[];
  /**
   * Set when `count` is a lower bound: a list that counts its matches only so far past the
   * page (docs/decisions/186-history-list-counts.md) found more than that. Absent: exact.
   */
  countIsLowerBound?: true;
}
