import type { Selectable } from 'kysely';
import { columnsOf } from './columns.js';

/**
 * A signed-in session (a JWT of POST /auth/login, a console sign-in): a token names its row, and
 * a token whose row is gone is refused (docs/decisions/179-sessions.md).
 */
export interface SessionTable {
  /** Random, 128 bits, base64url: the token's `sid`. */
  id: string;
  user_id: number;
  created_at: string;
  /** Written at most once a minute per session and process, so reads stay reads. */
  last_used_at: string;
  /** When the token stops being accepted anyway: rows past it are pruned. */
  expires_at: string;
  /** The client's User-Agent (cut to 256 characters), or the console's name. */
  user_agent: string | null;
  ip: string | null;
}

export const sessionColumns = columnsOf<Selectable<SessionTable>>({
  id: true,
  user_id: true,
  created_at: true,
  last_used_at: true,
  expires_at: true,
  user_agent: true,
  ip: true,
});
