import { z } from 'zod';
import { secondFactorFields } from './totp.js';

/** The body of POST /auth/login, with the bounds AuthService checks. */
/** A user with TOTP on adds `totp_code` or `recovery_code` (docs/decisions/178-totp-second-factor.md). */
export const loginRequestSchema = z
  .object({ username: z.string().min(1).max(64), password: z.string().min(1).max(1024), ...secondFactorFields })
  .meta({ id: 'login_request' });

/** The answer of POST /auth/login: a signed JWT and when it stops being accepted. */
export const tokenSchema = z.object({ token: z.string(), expires_at: z.string() }).meta({ id: 'jwt_token' });
