import { z } from 'zod';
import type { ListSpec } from '../list-query/list-query.js';
import { listFields } from '../list-query/list-fields.js';
import { listQuerySchema } from '../list-query/list-query-schema.js';
import { collectionSchema } from '../list-query/collection-schema.js';

/** A signed-in session (docs/decisions/179-sessions.md): never its token. */
export const sessionSchema = z
  .object({
    id: z.string(),
    user_id: z.number().int(),
    created_at: z.string(),
    last_used_at: z.string(),
    expires_at: z.string(),
    user_agent: z.string().nullable(),
    ip: z.string().nullable(),
  })
  .meta({ id: 'session' });
export type Session = z.output<typeof sessionSchema>;

export const sessionCollectionSchema = collectionSchema('sessions', sessionSchema).meta({ id: 'session_collection' });

const { integer, string, timestamp } = listFields;

export const sessionListSpec: ListSpec = {
  fields: { id: string, user_id: integer, created_at: timestamp, last_used_at: timestamp, expires_at: timestamp },
  filterable: ['user_id', 'created_at', 'last_used_at'],
};
export const sessionListQuerySchema = listQuerySchema(sessionListSpec);
