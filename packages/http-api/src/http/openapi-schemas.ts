import { z } from 'zod';

export const attributeErrorSchema = z
  .object({ error: z.string(), count: z.number().int().optional(), value: z.union([z.string(), z.number()]).optional() })
  .meta({ id: 'attribute_error' });

export const modelErrorSchema = z
  .object({ details: z.record(z.string(), z.array(attributeErrorSchema)), messages: z.array(z.string()) })
  .meta({ id: 'model_error' });

/** Share list parameters of the spec; values carry the operators of DESIGN §5.10. */
export function listQuerySchema(filters: readonly string[], pagination: 'limit_offset' | 'page') {
  const paging =
    pagination === 'limit_offset'
      ? { limit: z.string().optional(), offset: z.string().optional(), page: z.string().optional(), per_page: z.string().optional() }
      : { page: z.string().optional(), per_page: z.string().optional() };
  return z.object({
    ...paging,
    sort_by: z.string().optional().describe('ATTR[:asc|:desc] separated by |'),
    ...Object.fromEntries(filters.map((name) => [name, z.string().optional().describe('value with optional operator prefix: = != > >= < <= >< !>< ~ !~')])),
  });
}
