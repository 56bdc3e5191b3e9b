import { z } from 'zod';
import { looksLikeId, notIdLikeRule } from './common.js';

export const usernameSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9._@-]+$/, { message: 'may contain letters, digits and . _ @ -' })
  .refine((name) => !looksLikeId(name), notIdLikeRule);
export const passwordSchema = z.string().min(8).max(1024);

export interface User {
  id: number;
  username: string;
  admin: boolean;
  created_at: string;
}
