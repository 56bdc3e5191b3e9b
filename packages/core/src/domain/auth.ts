import { z } from 'zod';

/** The body of POST /auth/login, with the bounds AuthService checks. */
export const loginRequestSchema = z.object({ username: z.string().min(1).max(64), password: z.string().min(1).max(1024) }).meta({ id: 'login_request' });

/** The answer of POST /auth/login: a signed JWT and when it stops being accepted. */
export const tokenSchema = z.object({ token: z.string(), expires_at: z.string() }).meta({ id: 'jwt_token' });
