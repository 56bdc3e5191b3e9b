import { DomainError } from '../errors/domain-error.js';
import { int32Range, patternOps, type Filter, type FilterOp, type ListQuery, type ListSpec, type RawQuery, type SortKey } from './list-query.js';
import { closestName } from '../validation/closest-name.js';
import { hasNul } from '../validation/strings-with-nul.js';
import { paginationParameters, parsePagination } from './parse-pagination.js';
import { decimalAmountExample, decimalAmountPattern } from '../validation/decimal-amount.js';
import { likePatternShape } from './like-pattern.js';

export type { RawQuery } from './list-query.js';

/** The filter operators in the order the API description lists them (docs/api.md#lists, and `~*` / `!~*`). */
const operators: ReadonlyArray<[string, FilterOp]> = [
  ['=', 'eq'],
  ['!=', 'ne'],
  ['>', 'gt'],
  ['>=', 'gte'],
  ['<', 'lt'],
  ['<=', 'lte'],
  ['><', 'in'],
  ['!><', 'not_in'],
  ['~', 'like'],
  ['!~', 'not_like'],
  ['~*', 'ilike'],
  ['!~*', 'not_ilike'],
];
/** Every operator a filter value may start with, as messages and the API description list them. */
export const filterOperators: readonly string[] = operators.map(([prefix]) => prefix);
/** The operators a numeric attribute takes: every one but the pattern operators. */
const numericOperators = operators.filter(([, op]) => !patternOps.includes(op)).map(([prefix]) => prefix);
const patternOperators = operators.filter(([, op]) => patternOps.includes(op)).map(([prefix]) => prefix);
/** Longest prefix first: `!><` before `><`, `!~*` before `!~` before `~` … */
const operatorPrefixes = operators.toSorted(([a], [b]) => b.length - a.length);
/** What a value that starts like an operator but is none (`id=*5`, `id==>5`) looks like. */
const operatorLike = /^[=!<>~*]/;

const reservedParams = new Set<string>([...paginationParameters, 'sort_by']);
/** Each filter term is one more node of the SQL expression: SQLite refuses trees past depth 1000. */
export const maxFilterTerms = 32;
/**
 * What a pattern filter may cost, bounded before it runs (docs/decisions/101-list-filter-bounds.md):
 * LIKE's work per row grows with the pattern's length times the text's, so a scanning pattern (any
 * wildcard but one final `%`) is short, and a request carries few of them. A plain prefix (`abc%`,
 * an index range) and a pattern without wildcards cost one comparison a row and are not limited.
 */
export const patternBounds = { maxLength: 64, maxWildcards: 8, maxTerms: 4 } as const;
// Sealed at rest, and a filter on a secret would be an oracle for it: refused without a list of
// what is allowed, so the answer is the same whether or not the list has such a column.
const secretParams = new Set(['password', 'password_enc', 'key_hash', 'password_hash', 'community']);

function bad(parameter: string, message: string): DomainError {
  return DomainError.badRequest(parameter, message);
}

function didYouMean(name: string, candidates: readonly string[]): string {
  const guess = closestName(name, candidates);
  return guess === undefined ? '' : `; did you mean '${guess}'?`;
}

/** Every query parameter a list takes, in the order its messages and API description list them. */
export function acceptedQueryParameters(spec: Pick<ListSpec, 'filterable'>): string[] {
  return [...paginationParameters, 'sort_by', ...spec.filterable];
}

/**
 * A parameter that is neither pagination, sort_by nor a filter of this list. A typo must
 * not pass silently (it would return every row), so the answer names what is accepted.
 */
function refuseParameter(name: string, spec: ListSpec): DomainError {
  if (secretParams.has(name)) return bad(name, `cannot filter on '${name}'`);
  if (Object.hasOwn(spec.fields, name)) {
    return bad(name, `cannot filter on '${name}'; filterable: ${spec.filterable.join(', ')}`);
  }
  const accepted = acceptedQueryParameters(spec);
  return bad(name, `unknown query parameter '${name}'; accepted: ${accepted.join(', ')}${didYouMean(name, accepted)}`);
}

/**
 * No stored text holds NUL, and PostgreSQL cannot even compare text with one (an error, not
 * "no match"): a parameter with `%00` in its name or a value is a bad query parameter.
 */
function refuseNul(name: string, values: readonly string[]): void {
  if (hasNul(name) || values.some(hasNul)) throw bad(name, `query parameter ${JSON.stringify(name)} must not contain NUL characters (%00)`);
}

/** `:ci` after an attribute (and its direction) orders text with ASCII letters folded to lower case. */
const caseInsensitiveSuffix = 'ci';

function parseSort(raw: RawQuery, spec: ListSpec): SortKey[] {
  const keys: SortKey[] = [];
  for (const text of raw['sort_by'] ?? []) {
    for (const part of text.split('|')) {
      const [field = '', ...modifiers] = part.split(':');
      const caseInsensitive = modifiers.at(-1) === caseInsensitiveSuffix;
      if (caseInsensitive) modifiers.pop();
      const [direction = 'asc', ...rest] = modifiers;
      if (rest.length > 0 || (direction !== 'asc' && direction !== 'desc')) {
        throw bad('sort_by', `sort_by '${part}' must be ATTRIBUTE, ATTRIBUTE:asc or ATTRIBUTE:desc, optionally followed by :ci (case-insensitive)`);
      }
      if (!Object.hasOwn(spec.fields, field)) {
        const sortable = Object.keys(spec.fields);
        throw bad('sort_by', `cannot sort by '${field}'; sortable: ${sortable.join(', ')}${didYouMean(field, sortable)}`);
      }
      const definition = spec.fields[field]!;
      if (caseInsensitive && definition.type !== 'string') throw bad('sort_by', `sort_by '${part}': :ci applies to text attributes, and ${field} is not one`);
      const column = definition.column ?? field;
      if (!keys.some((key) => key.field === column)) {
        keys.push({
          field: column,
          direction,
          nullable: definition.nullable === true,
          ...(caseInsensitive ? { caseInsensitive } : {}),
          ...(definition.type === 'decimal' ? { decimal: true } : {}),
        });
      }
    }
  }
  return keys;
}

/** `id=*5`, `id==>5`: an operator misspelt before a numeric value, so the answer names the real ones. */
function operatorHint(text: string): string {
  return operatorLike.test(text) ? `, after one of the operators ${numericOperators.join(' ')}` : '';
}

function parseValue(field: string, spec: ListSpec, text: string): string | number | null {
  const definition = spec.fields[field]!;
  if (definition.nullable && text === 'null') return null;
  switch (definition.type) {
    case 'decimal':
      // Kept as the text sent: the database compares it as a number, as it does the column.
      if (decimalAmountPattern.test(text)) return text;
      throw bad(
        field,
        `${field} filter value '${text}' must be a decimal such as ${decimalAmountExample} (up to 15 digits, optionally a point and up to 4 more)${operatorHint(text)}`,
      );
    case 'string':
      return text;
    case 'boolean':
      // Stored as 0/1 (the API shows true/false).
      if (text === 'true' || text === 'false') return text === 'true' ? 1 : 0;
      throw bad(field, `${field} filter value '${text}' must be true or false`);
    case 'integer': {
      // Digits only, then the column's range: PostgreSQL refuses a value its column cannot hold
      // (`id=>999999999999999`) with an error, where the answer is a 400 naming the bounds.
      const [min, max] = definition.range ?? int32Range;
      if (!/^-?\d{1,20}$/.test(text)) throw bad(field, `${field} filter value '${text}' must be an integer between ${min} and ${max}${operatorHint(text)}`);
      const value = Number(text);
      if (value < min || value > max) throw bad(field, `${field} filter value '${text}' must be between ${min} and ${max}`);
      return value;
    }
  }
}

/** The escape rule and the cost bounds of one pattern (list-query/like-pattern.ts). */
function checkPattern(field: string, pattern: string): void {
  const shape = likePatternShape(pattern);
  if (shape.danglingEscape) {
    throw bad(field, `${field} pattern ends in a backslash, which escapes nothing: write \\\\ to match a backslash, \\% and \\_ to match % and _`);
  }
  if (shape.wildcards > patternBounds.maxWildcards) {
    throw bad(field, `${field} pattern has ${shape.wildcards} wildcards: a pattern takes at most ${patternBounds.maxWildcards} % and _`);
  }
  const scanning = shape.wildcards > 0 && shape.prefix === undefined;
  if (scanning && pattern.length > patternBounds.maxLength) {
    throw bad(
      field,
      `${field} pattern is ${pattern.length} characters long: a pattern with a wildcard other than one final % is at most ${patternBounds.maxLength} characters`,
    );
  }
}

function parseFilter(field: string, spec: ListSpec, text: string): Filter {
  const [prefix, op] = operatorPrefixes.find(([p]) => text.startsWith(p)) ?? ['', 'eq' as const];
  const operand = text.slice(prefix.length);
  const definition = spec.fields[field]!;
  if (definition.type === 'boolean' && op !== 'eq' && op !== 'ne') {
    throw bad(field, `${field} is true or false: filter it with = or !=`);
  }
  const pattern = patternOps.includes(op);
  if (pattern && definition.type !== 'string') {
    throw bad(field, `${field} is numeric: ${patternOperators.join(' ')} apply to text attributes; ${field} takes ${numericOperators.join(' ')}`);
  }
  if (pattern) checkPattern(field, operand);
  const parts = op === 'in' || op === 'not_in' ? operand.split('|') : [operand];
  if (parts.length > 1000) throw bad(field, `${field} filter lists at most 1000 values`);
  const values = parts.map((part) => parseValue(field, spec, part));
  const allowed = definition.oneOf;
  if (allowed && !pattern) {
    const unknown = values.find((value) => typeof value === 'string' && !allowed.includes(value));
    if (unknown !== undefined)
      throw bad(field, `${field} filter value '${unknown}' must be one of ${allowed.join(', ')}${didYouMean(String(unknown), allowed)}`);
  }
  if (values.includes(null) && op !== 'eq' && op !== 'ne') {
    throw bad(field, `${field}: null works with = and != only`);
  }
  return { field: definition.column ?? field, op, values, ...(definition.type === 'decimal' ? { decimal: true } : {}) };
}

/**
 * Turns query parameters into a ListQuery (docs/decisions/014-one-list-contract.md). Every parameter must be one
 * the list accepts: an unknown one, a known attribute this list does not filter on, or a
 * secret is a 400 that says what is accepted.
 */
export function parseListQuery(raw: RawQuery, spec: ListSpec): ListQuery {
  const filters: Filter[] = [];
  for (const [name, values] of Object.entries(raw)) {
    if (values === undefined) continue;
    refuseNul(name, values);
    if (values.length > maxFilterTerms) throw bad(name, `${name} may be repeated at most ${maxFilterTerms} times`);
    if (reservedParams.has(name)) continue;
    if (!spec.filterable.includes(name)) throw refuseParameter(name, spec);
    for (const text of values) filters.push(parseFilter(name, spec, text));
    if (filters.length > maxFilterTerms) throw bad(name, `a list takes at most ${maxFilterTerms} filter terms`);
    if (filters.filter((filter) => patternOps.includes(filter.op)).length > patternBounds.maxTerms) {
      throw bad(name, `a list takes at most ${patternBounds.maxTerms} pattern terms (${patternOperators.join(' ')})`);
    }
  }
  const { limit, offset } = parsePagination(raw);
  return { limit, offset, sort: parseSort(raw, spec), filters };
}
