import { z } from 'zod';
import type { ListSpec } from './list-query.js';
import { listDefaults } from '../defaults.js';
import { acceptedQueryParameters, filterOperators, patternBounds } from './parse-list-query.js';
import { maxPage } from './parse-pagination.js';

const optionalText = (description: string) => z.string().optional().describe(description);

/** Every list takes both schemes (docs/decisions/014-one-list-contract.md); one request uses one of them. */
const paginationParams = {
  limit: optionalText(`items to return, 1 to ${listDefaults.maxPageSize} (default ${listDefaults.pageSize}); with offset, not with page or per_page`),
  offset: optionalText('items to skip, 0 or more (default 0); with limit, not with page or per_page'),
  page: optionalText(`page number, 1 to ${maxPage} (default 1); with per_page, not with limit or offset`),
  per_page: optionalText(`items per page, 1 to ${listDefaults.maxPageSize} (default ${listDefaults.pageSize}); with page, not with limit or offset`),
};

/**
 * The query parameters a list accepts, for the API description: derived from the ListSpec
 * that parses them, so the document cannot drift from what the list really takes (any other
 * parameter is a 400). Values stay strings: they carry the operators of docs/api.md#lists.
 */
export function listQuerySchema(spec: Pick<ListSpec, 'fields' | 'filterable'>) {
  const fixed: Record<string, z.ZodOptional<z.ZodString>> = {
    ...paginationParams,
    sort_by: optionalText(
      `ATTR[:asc|:desc][:ci] separated by |; ATTR one of ${Object.keys(spec.fields).join(', ')}; :ci orders text case-insensitively (ASCII letters)`,
    ),
  };
  const filter = optionalText(
    `value with optional operator prefix: ${filterOperators.join(' ')} (~ and !~ match a pattern, % any text and _ one character, \\ makes the next character literal: \\% \\_ \\\\; ~* and !~* the same ignoring the case of ASCII letters; ` +
      `at most ${patternBounds.maxTerms} pattern terms a request, ${patternBounds.maxWildcards} wildcards a pattern, and ${patternBounds.maxLength} characters unless the pattern is a plain prefix abc% or has no wildcard)`,
  );
  // The parser's own list of accepted names, in the order of its messages.
  return z.object(Object.fromEntries(acceptedQueryParameters(spec).map((name) => [name, fixed[name] ?? filter])));
}
