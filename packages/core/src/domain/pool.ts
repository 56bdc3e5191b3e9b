import { z } from 'zod';
import { resourceName, idSchema, optionalText } from './common.js';
import { strictInput } from '../validation/strict-input.js';
import type { ListSpec } from '../list-query/list-query.js';
import { listFields } from '../list-query/list-fields.js';
import { listQuerySchema } from '../list-query/list-query-schema.js';
import { collectionSchema } from '../list-query/collection-schema.js';

export const poolTypes = ['active_archive', 'offline_archive', 'data_exchange', 'scratch', 'data_enrichment', 'primary'] as const;
export const poolContents = ['tape', 'cloud', 'nas'] as const;

const poolReadOnly = ['id', 'primary_id'];

export const poolCreateSchema = strictInput(
  z.object({
    name: resourceName(255),
    comment: optionalText(1024),
    type: z.enum(poolTypes).default('primary'),
    content: z.enum(poolContents).default('nas'),
  }),
  // A new pool has no members; asking for some on create would silently do nothing.
  { readOnly: poolReadOnly, setElsewhere: { nas_share_ids: 'is set through PUT /pools/{id} {"nas_share_ids": [...]} once the pool exists' } },
);

export const poolUpdateSchema = strictInput(
  z.object({
    name: resourceName(255).optional(),
    comment: optionalText(1024),
    type: z.enum(poolTypes).optional(),
    content: z.enum(poolContents).optional(),
    /** Replaces the pool's membership: exactly these shares are in the pool afterwards. */
    nas_share_ids: z.array(idSchema).max(10_000).optional(),
  }),
  { readOnly: poolReadOnly },
);

export const poolSchema = z
  .object({
    id: idSchema,
    name: z.string(),
    comment: z.string().nullable(),
    type: z.enum(poolTypes),
    content: z.enum(poolContents),
    primary_id: idSchema.nullable(),
    nas_share_ids: z.array(idSchema),
  })
  .meta({ id: 'pool' });

export type PoolCreate = z.output<typeof poolCreateSchema>;
export type PoolUpdate = z.output<typeof poolUpdateSchema>;
export type Pool = z.output<typeof poolSchema>;

export const poolCollectionSchema = collectionSchema('pools', poolSchema).meta({ id: 'pool_collection' });

// Lists: the attributes a list sorts and filters on, and the query parameters they give.
const { integer, nullableInteger, string, nullableString } = listFields;

export const poolListSpec: ListSpec = {
  fields: { id: integer, name: string, type: string, content: string, comment: nullableString, primary_id: nullableInteger },
  filterable: ['id', 'name', 'type', 'content', 'comment', 'primary_id'],
};
export const poolListQuerySchema = listQuerySchema(poolListSpec);
