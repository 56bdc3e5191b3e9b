import { z } from 'zod';
import type { User } from '../domain/user.js';
import { collectionSchema } from './collection-schema.js';

/** A user as every answer shows it: never the password hash (UserService's presentUser). */
export const userSchema = z
  .object({ id: z.number().int(), username: z.string(), admin: z.boolean(), created_at: z.string() })
  .meta({ id: 'user' }) satisfies z.ZodType<User>;

export const userCollectionSchema = collectionSchema('users', userSchema).meta({ id: 'user_collection' });
