import type { Selectable } from 'kysely';
import { columnsOf } from './columns.js';

/**
 * A dms user signed in through an OpenID provider: linked by the provider's issuer and subject
 * (never by a name the provider lets its users choose), with the role name the provider's claim
 * mapped to at the latest sign-in (docs/decisions/177-oidc-sign-in.md).
 */
export interface OidcIdentityTable {
  user_id: number;
  issuer: string;
  subject: string;
  /** The mapped role's name (`admin` makes the user an admin). */
  role: string;
  created_at: string;
  signed_in_at: string;
}

export const oidcIdentityColumns = columnsOf<Selectable<OidcIdentityTable>>({
  user_id: true,
  issuer: true,
  subject: true,
  role: true,
  created_at: true,
  signed_in_at: true,
});
