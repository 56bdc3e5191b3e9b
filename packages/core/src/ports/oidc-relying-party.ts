/**
 * The OpenID Connect client side of a sign-in (docs/decisions/177-oidc-sign-in.md): what the
 * core needs from a provider, with the protocol's checks (discovery, PKCE S256, state, nonce,
 * the ID token's issuer, audience, expiry and signature from the provider's JWKS) left to a
 * well-kept library in the adapter (`adapters/openid-client`).
 */
export interface OidcClientSettings {
  issuer: string;
  clientId: string;
  /** Undefined: a public client, which proves itself with PKCE only. */
  clientSecret: string | undefined;
}

export interface OidcAuthorizationRequest {
  redirectUri: string;
  scope: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface OidcCallback {
  /** The query string the provider sent the browser back with (code, state, iss; or error). */
  params: URLSearchParams;
  /** What the login was started with, taken from storage. */
  redirectUri: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** The verified ID token's claims (`iss`, `sub`, `aud`, … and whatever else the provider put in it). */
export type OidcClaims = Readonly<Record<string, unknown>> & { readonly iss: string; readonly sub: string };

export interface OidcRelyingParty {
  /** The provider's authorization URL for this request (its discovery document read, or cached). */
  authorizationUrl(client: OidcClientSettings, request: OidcAuthorizationRequest): Promise<URL>;
  /**
   * Checks the provider's answer, exchanges its code with the PKCE verifier, and verifies the ID
   * token. Rejects with an `OidcRefusal` saying what was wrong.
   */
  finish(client: OidcClientSettings, callback: OidcCallback): Promise<OidcClaims>;
}

/** A sign-in the provider or the checks refused; `message` says why in words for the user. */
export class OidcRefusal extends Error {
  override readonly name = 'OidcRefusal';
}
