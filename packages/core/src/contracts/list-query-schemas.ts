import { z } from 'zod';
import { maxPageSize, type ListSpec } from '../list-query/list-query.js';
import { apiKeyListSpec, corsRuleListSpec, nasListSpec, poolListSpec, shareListSpecs, trapListSpec, userListSpec } from '../list-query/list-specs.js';

const optionalText = (description: string) => z.string().optional().describe(description);

const pageParams = {
  page: optionalText('page number, from 1'),
  per_page: optionalText(`items per page, 1 to ${maxPageSize}`),
};

/** Share lists take either pair (spec endpoints 1, 8, 12); the other lists only pages. */
const paginationParams: Record<ListSpec['pagination'], Record<string, z.ZodOptional<z.ZodString>>> = {
  limit_offset: {
    limit: optionalText(`items to return, 1 to ${maxPageSize}`),
    offset: optionalText('items to skip, from 0'),
    ...pageParams,
  },
  page: pageParams,
};

/**
 * The query parameters a list accepts, for the API description: derived from the ListSpec
 * that parses them, so the document cannot drift from what the list really filters on.
 * Values stay strings: they carry the operators of DESIGN §5.10.
 */
export function listQuerySchema(spec: Pick<ListSpec, 'filterable' | 'pagination'>) {
  const filters = spec.filterable.map((name) => [name, optionalText('value with optional operator prefix: = != > >= < <= >< !>< ~ !~')] as const);
  return z.object({
    ...paginationParams[spec.pagination],
    sort_by: optionalText('ATTR[:asc|:desc] separated by |'),
    ...Object.fromEntries(filters),
  });
}

export const shareListQuerySchemas = {
  all: listQuerySchema(shareListSpecs.all),
  nas: listQuerySchema(shareListSpecs.nas),
  pool: listQuerySchema(shareListSpecs.pool),
} as const;
export const nasListQuerySchema = listQuerySchema(nasListSpec);
export const poolListQuerySchema = listQuerySchema(poolListSpec);
export const trapListQuerySchema = listQuerySchema(trapListSpec);
export const userListQuerySchema = listQuerySchema(userListSpec);
export const apiKeyListQuerySchema = listQuerySchema(apiKeyListSpec);
export const corsRuleListQuerySchema = listQuerySchema(corsRuleListSpec);
