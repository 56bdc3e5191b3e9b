import { decimalAmountExample, listDefaults, listQuerySchema, maxPage, type ListField, type ListSpec } from '@dms/core';
import { z } from 'zod';
import { integerParameter } from './integer-parameter.js';

/**
 * The bounds the list parser enforces (core list-query/parse-pagination.ts): `limit` and
 * `per_page` up to the page size, `page` up to the last page whose offset is still exact, `offset`
 * up to the largest exact integer. test/api-conventions/documented-query-parameters.test.ts sends each maximum
 * and one past it, so these cannot drift from what the server refuses.
 */
export const paginationBounds = {
  limit: [1, listDefaults.maxPageSize],
  offset: [0, Number.MAX_SAFE_INTEGER],
  page: [1, maxPage],
  per_page: [1, listDefaults.maxPageSize],
} as const;

/**
 * Every `sort_by` term a list takes: each sortable attribute, with `:asc` or `:desc`, and on a
 * text attribute `:ci` after either (docs/decisions/015-list-order-and-ties.md; the parser refuses `:ci` on numbers).
 */
export function sortTerms(fields: Readonly<Record<string, ListField>>): string[] {
  return Object.entries(fields).flatMap(([name, field]) => {
    const directed = [name, `${name}:asc`, `${name}:desc`];
    return field.type === 'string' ? [...directed, ...directed.map((term) => `${term}:ci`)] : directed;
  });
}

/** What a filter value compares with, said after the operators. */
function valueKind(field: ListField): string {
  if (field.oneOf) return `one of ${field.oneOf.join(', ')}`;
  if (field.type === 'boolean') return 'true or false';
  if (field.type === 'integer') return 'an integer';
  // A decimal filter compares numbers: the parser refuses the pattern operators on it.
  if (field.type === 'decimal') return `a decimal such as ${decimalAmountExample}, compared as a number (not with ~ !~ ~* !~*)`;
  return 'text';
}

/**
 * A list's query parameters as the API description shows them, from the ListSpec the list
 * parses with: the same names, order and wording as the core's listQuerySchema, with
 * `limit`/`offset`/`page`/`per_page` typed as integers with their bounds, `sort_by` as a
 * pipe-delimited array of exactly the terms the parser accepts (a generated client cannot send
 * `sort_by=password`), and each filter saying what its values are.
 */
export function listQueryParameters(spec: Pick<ListSpec, 'fields' | 'filterable'>): z.ZodObject {
  const base = listQuerySchema(spec).shape as Record<string, z.ZodType>;
  const shape: Record<string, z.ZodType> = {};
  for (const [name, schema] of Object.entries(base)) {
    if (Object.hasOwn(paginationBounds, name)) {
      shape[name] = integerParameter(paginationBounds[name as keyof typeof paginationBounds], schema.description);
    } else if (name === 'sort_by') {
      const terms = sortTerms(spec.fields) as [string, ...string[]];
      shape[name] = z
        .array(z.enum(terms))
        .optional()
        .describe(schema.description ?? 'attributes to sort on, separated by |')
        .meta({ param: { style: 'pipeDelimited', explode: false } });
    } else {
      const field = spec.fields[name];
      shape[name] = field === undefined ? schema : schema.describe(`${schema.description ?? ''}; the value is ${valueKind(field)}`);
    }
  }
  return z.object(shape);
}
