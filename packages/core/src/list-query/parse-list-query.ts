import { DomainError } from '../errors/domain-error.js';
import { defaultPageSize, maxPageSize, type Filter, type FilterOp, type ListQuery, type ListSpec, type SortKey } from './list-query.js';

export type RawQuery = Readonly<Record<string, readonly string[] | undefined>>;

/** Longest prefix first: `!><` before `><` before `!=` … (DESIGN §5.10). */
const operatorPrefixes: ReadonlyArray<[string, FilterOp]> = [
  ['!><', 'not_in'],
  ['><', 'in'],
  ['!=', 'ne'],
  ['>=', 'gte'],
  ['<=', 'lte'],
  ['!~', 'not_like'],
  ['>', 'gt'],
  ['<', 'lt'],
  ['~', 'like'],
  ['=', 'eq'],
];

const reservedParams = new Set(['limit', 'offset', 'page', 'per_page', 'sort_by']);
/** Each filter term is one more node of the SQL expression: SQLite refuses trees past depth 1000. */
export const maxFilterTerms = 32;
// Sealed at rest, and a filter on a secret would be an oracle for it.
const secretParams = new Set(['password', 'password_enc', 'key_hash', 'password_hash', 'community']);

function bad(parameter: string, message: string): DomainError {
  return DomainError.badRequest(parameter, message);
}

function single(raw: RawQuery, name: string): string | undefined {
  const values = raw[name];
  if (values === undefined || values.length === 0) return undefined;
  if (values.length > 1) throw bad(name, `${name} may be given once`);
  return values[0];
}

function integerParam(raw: RawQuery, name: string, min: number, max: number): number | undefined {
  const text = single(raw, name);
  if (text === undefined) return undefined;
  if (!/^\d{1,15}$/.test(text)) throw bad(name, `${name} must be an integer`);
  const value = Number(text);
  if (value < min || value > max) throw bad(name, `${name} must be between ${min} and ${max}`);
  return value;
}

function parsePagination(raw: RawQuery, spec: ListSpec): { limit: number; offset: number } {
  const hasLimitOffset = raw['limit'] !== undefined || raw['offset'] !== undefined;
  const hasPage = raw['page'] !== undefined || raw['per_page'] !== undefined;
  if (hasLimitOffset && spec.pagination === 'page') {
    throw bad('limit', 'this list takes page and per_page, not limit and offset');
  }
  if (hasLimitOffset && hasPage) throw bad('page', 'use limit/offset or page/per_page, not both');
  if (hasLimitOffset) {
    return {
      limit: integerParam(raw, 'limit', 1, maxPageSize) ?? defaultPageSize,
      offset: integerParam(raw, 'offset', 0, Number.MAX_SAFE_INTEGER) ?? 0,
    };
  }
  const perPage = integerParam(raw, 'per_page', 1, maxPageSize) ?? defaultPageSize;
  const page = integerParam(raw, 'page', 1, Math.floor(Number.MAX_SAFE_INTEGER / maxPageSize)) ?? 1;
  return { limit: perPage, offset: (page - 1) * perPage };
}

function parseSort(raw: RawQuery, spec: ListSpec): SortKey[] {
  const keys: SortKey[] = [];
  for (const text of raw['sort_by'] ?? []) {
    for (const part of text.split('|')) {
      const [field = '', direction = 'asc', ...rest] = part.split(':');
      if (rest.length > 0 || (direction !== 'asc' && direction !== 'desc')) {
        throw bad('sort_by', `sort_by '${part}' must be ATTRIBUTE, ATTRIBUTE:asc or ATTRIBUTE:desc`);
      }
      if (!Object.hasOwn(spec.fields, field)) throw bad('sort_by', `cannot sort by '${field}'`);
      const column = spec.fields[field]!.column ?? field;
      if (!keys.some((key) => key.field === column)) keys.push({ field: column, direction });
    }
  }
  return keys;
}

function parseValue(field: string, spec: ListSpec, text: string): string | number | null {
  const definition = spec.fields[field]!;
  if (definition.nullable && text === 'null') return null;
  if (definition.type === 'string') return text;
  if (!/^-?\d{1,15}$/.test(text)) throw bad(field, `${field} filter value '${text}' must be an integer`);
  return Number(text);
}

function parseFilter(field: string, spec: ListSpec, text: string): Filter {
  const [prefix, op] = operatorPrefixes.find(([p]) => text.startsWith(p)) ?? ['', 'eq' as const];
  const operand = text.slice(prefix.length);
  const definition = spec.fields[field]!;
  if ((op === 'like' || op === 'not_like') && definition.type !== 'string') {
    throw bad(field, `${field} is numeric: ~ and !~ apply to text attributes`);
  }
  const parts = op === 'in' || op === 'not_in' ? operand.split('|') : [operand];
  if (parts.length > 1000) throw bad(field, `${field} filter lists at most 1000 values`);
  const values = parts.map((part) => parseValue(field, spec, part));
  if (values.includes(null) && op !== 'eq' && op !== 'ne') {
    throw bad(field, `${field}: null works with = and != only`);
  }
  return { field: definition.column ?? field, op, values };
}

/**
 * Turns query parameters into a ListQuery. Unknown parameters are ignored; a known
 * attribute that this endpoint does not filter on, or a secret, is a 400.
 */
export function parseListQuery(raw: RawQuery, spec: ListSpec): ListQuery {
  const { limit, offset } = parsePagination(raw, spec);
  const filters: Filter[] = [];
  for (const [name, values] of Object.entries(raw)) {
    if (values !== undefined && values.length > maxFilterTerms) throw bad(name, `${name} may be repeated at most ${maxFilterTerms} times`);
    if (values === undefined || reservedParams.has(name)) continue;
    if (secretParams.has(name)) throw bad(name, `cannot filter on '${name}'`);
    if (!Object.hasOwn(spec.fields, name)) continue;
    if (!spec.filterable.includes(name)) throw bad(name, `this list cannot be filtered on '${name}'`);
    for (const text of values) filters.push(parseFilter(name, spec, text));
    if (filters.length > maxFilterTerms) throw bad(name, `a list takes at most ${maxFilterTerms} filter terms`);
  }
  return { limit, offset, sort: parseSort(raw, spec), filters };
}
