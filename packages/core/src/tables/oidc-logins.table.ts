/**
 * A sign-in sent to the OpenID provider and not back yet: kept in storage so whichever replica
 * the provider's redirect reaches can finish it, taken (deleted) by the first callback that
 * presents its state, refused after `expires_at` (docs/decisions/177-oidc-sign-in.md).
 */
export interface OidcLoginTable {
  /** The `state` sent to the provider (random, 256 bits). */
  state: string;
  /** The PKCE verifier, sealed with the secret box. */
  code_verifier: string;
  nonce: string;
  /** Where the provider sends the browser back (the REST callback, or the console's loopback). */
  redirect_uri: string;
  created_at: string;
  expires_at: string;
}
