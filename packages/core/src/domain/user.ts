import { z } from 'zod';

export const usernameSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9._@-]+$/, { message: 'may contain letters, digits and . _ @ -' })
  .refine((name) => !/^\d+$/.test(name), { message: 'must not be all digits (an all-digit name would read as an id in paths)' });
export const passwordSchema = z.string().min(8).max(1024);

export interface User {
  id: number;
  username: string;
  admin: boolean;
  created_at: string;
}
