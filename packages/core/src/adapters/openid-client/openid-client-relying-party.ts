import { createHash } from 'node:crypto';
import type * as OpenIdClient from 'openid-client';
import { OidcRefusal, type OidcCallback, type OidcClaims, type OidcClientSettings, type OidcRelyingParty } from '../../ports/oidc-relying-party.js';

/** How long a provider's discovery document is trusted before it is read again. */
const discoveryTtlMs = 3600_000;
/** Seconds a request to the provider may take. */
const providerTimeoutSeconds = 10;
/** The largest difference between the provider's clock and ours that an ID token's times may show. */
const clockToleranceSeconds = 60;

type Library = typeof OpenIdClient;

interface CachedConfiguration {
  configuration: Promise<OpenIdClient.Configuration>;
  until: number;
}

const isLoopbackHttp = (issuer: string) => new URL(issuer).protocol === 'http:';

/** The claims of a verified ID token, as the port gives them. */
function claimsOf(claims: OpenIdClient.IDToken | undefined): OidcClaims {
  if (!claims) throw new OidcRefusal('the provider answered no ID token');
  return claims as OidcClaims;
}

/** What the library said, in one sentence for the user. */
function refusalOf(library: Library, error: unknown): OidcRefusal {
  if (error instanceof OidcRefusal) return error;
  if (error instanceof library.ResponseBodyError || error instanceof library.AuthorizationResponseError) {
    const description = error.error_description ? ` (${error.error_description})` : '';
    return new OidcRefusal(`the provider refused the sign-in: ${error.error}${description}`, { cause: error });
  }
  if (error instanceof library.ClientError) {
    // openid-client's own words are general ("unexpected JWT claim value encountered"); the check's are under it.
    const detail = error.cause instanceof Error && error.cause.message !== error.message ? `: ${error.cause.message}` : '';
    return new OidcRefusal(`the provider’s answer failed a check: ${error.message}${detail}`, { cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new OidcRefusal(`the provider could not be reached or answered wrongly: ${message}`, { cause: error });
}

/**
 * The relying party over `openid-client` (v6): discovery cached an hour per provider and client,
 * the JWKS cached by the library (read again after five minutes, or at an unknown `kid` once the
 * copy is a minute old), and the ID token's signature checked against it
 * (`enableNonRepudiationChecks`: without it the library trusts the TLS channel instead). Plain
 * http only for a loopback issuer, which the settings allow for a provider on this machine.
 */
export class OpenIdClientRelyingParty implements OidcRelyingParty {
  readonly #configurations = new Map<string, CachedConfiguration>();
  #library: Promise<Library> | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  async authorizationUrl(client: OidcClientSettings, request: Parameters<OidcRelyingParty['authorizationUrl']>[1]): Promise<URL> {
    const library = await this.#load();
    try {
      const configuration = await this.#configuration(library, client);
      return library.buildAuthorizationUrl(configuration, {
        redirect_uri: request.redirectUri,
        scope: request.scope,
        state: request.state,
        nonce: request.nonce,
        code_challenge: await library.calculatePKCECodeChallenge(request.codeVerifier),
        code_challenge_method: 'S256',
      });
    } catch (error) {
      throw refusalOf(library, error);
    }
  }

  async finish(client: OidcClientSettings, callback: OidcCallback): Promise<OidcClaims> {
    const library = await this.#load();
    try {
      const configuration = await this.#configuration(library, client);
      // The redirect URI the login was started with, carrying what the provider sent back.
      const currentUrl = new URL(callback.redirectUri);
      for (const [name, value] of callback.params) currentUrl.searchParams.append(name, value);
      const tokens = await library.authorizationCodeGrant(configuration, currentUrl, {
        pkceCodeVerifier: callback.codeVerifier,
        expectedState: callback.state,
        expectedNonce: callback.nonce,
        idTokenExpected: true,
      });
      return claimsOf(tokens.claims());
    } catch (error) {
      throw refusalOf(library, error);
    }
  }

  #load(): Promise<Library> {
    return (this.#library ??= import('openid-client'));
  }

  #configuration(library: Library, client: OidcClientSettings): Promise<OpenIdClient.Configuration> {
    const secretDigest = client.clientSecret === undefined ? '' : createHash('sha256').update(client.clientSecret).digest('base64url');
    const key = JSON.stringify([client.issuer, client.clientId, secretDigest]);
    const now = this.now();
    const cached = this.#configurations.get(key);
    if (cached && cached.until > now) return cached.configuration;
    const configuration = this.#discover(library, client);
    // A failed discovery is not kept: the next sign-in tries again.
    configuration.catch(() => this.#configurations.delete(key));
    if (this.#configurations.size >= 16) this.#configurations.clear();
    this.#configurations.set(key, { configuration, until: now + discoveryTtlMs });
    return configuration;
  }

  async #discover(library: Library, client: OidcClientSettings): Promise<OpenIdClient.Configuration> {
    const authentication = client.clientSecret === undefined ? library.None() : library.ClientSecretBasic(client.clientSecret);
    const insecure = isLoopbackHttp(client.issuer);
    const configuration = await library.discovery(
      new URL(client.issuer),
      client.clientId,
      { [library.clockTolerance]: clockToleranceSeconds },
      authentication,
      { timeout: providerTimeoutSeconds, ...(insecure ? { execute: [library.allowInsecureRequests] } : {}) },
    );
    library.enableNonRepudiationChecks(configuration);
    return configuration;
  }
}
