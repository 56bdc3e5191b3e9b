import type { Selectable } from 'kysely';
import { columnsOf } from './columns.js';
import type { JsonText } from './json-text.js';

/**
 * A user's second factor (docs/decisions/178-totp-second-factor.md): one row from enrollment on,
 * deleted when it is turned off. Kept beside `users` so that a user's row stays what every
 * request reads.
 */
export interface UserTotpTable {
  user_id: number;
  /** The base32 secret, sealed (SecretBox): never stored in clear. */
  secret: string;
  /** 0 while enrolled and unconfirmed, 1 once a code confirmed it. */
  enabled: number;
  /** The last time step a code was accepted at: a code of that step or before is refused (replay). */
  last_step: number | null;
  /** Keyed digests (SecretBox.fingerprint) of the recovery codes not used yet. */
  recovery_codes: JsonText<string[]>;
  created_at: string;
}

export const userTotpColumns = columnsOf<Selectable<UserTotpTable>>({
  user_id: true,
  secret: true,
  enabled: true,
  last_step: true,
  recovery_codes: true,
  created_at: true,
});
