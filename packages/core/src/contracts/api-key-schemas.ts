import { z } from 'zod';
import { scopeSchema } from '../domain/api-key.js';
import { collectionSchema } from './collection-schema.js';

/** An API key as answers show it: the key itself masked to its last four characters. */
export const apiKeySchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    masked_key: z.string(),
    api_key_scopes: z.array(scopeSchema),
    created_at: z.string(),
    expires_at: z.string().nullable(),
    last_used_at: z.string().nullable(),
  })
  .meta({ id: 'api_key' });
export type ApiKeyView = z.output<typeof apiKeySchema>;

/** The answer of POST /api_keys: the one time the key itself is shown (only its hash is stored). */
export const apiKeyWithKeySchema = apiKeySchema
  .extend({ key: z.string().describe('the key itself, shown only in this response') })
  .meta({ id: 'api_key_with_key' });

export const apiKeyCollectionSchema = collectionSchema('api_keys', apiKeySchema).meta({ id: 'api_key_collection' });

/** The answer of GET /api_keys/current: what the caller's own credential may do. */
export const currentCredentialSchema = z
  .object({
    kind: z.enum(['user', 'api_key']),
    id: z.number().int().optional().describe('the key id; absent for a user'),
    name: z.string().describe('the key name, or the user name'),
    api_key_scopes: z.array(scopeSchema),
  })
  .meta({ id: 'current_credential' });
