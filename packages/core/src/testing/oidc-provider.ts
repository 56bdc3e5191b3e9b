import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { SignJWT, decodeJwt, exportJWK, generateKeyPair, type JWK, type JWTPayload } from 'jose';
import Provider, { type Configuration } from 'oidc-provider';

/** Who signs in at the provider: what its ID tokens say of them. */
export interface TestOidcAccount {
  sub: string;
  preferred_username?: string;
  email?: string;
  groups?: string[];
  role?: string;
}

/** How the next ID token the token endpoint answers is changed on its way out. */
export interface IdTokenTampering {
  /** The payload as it should read. */
  change: (payload: JWTPayload) => JWTPayload;
  /** Signed again with the provider's own key (a lying provider), or left with its old signature (a forgery). */
  resign: boolean;
}

/**
 * A real OpenID provider (the `oidc-provider` package) on 127.0.0.1, for the single sign-on
 * tests: one client, sign-ins that finish without a form (as the account set with `signInAs`),
 * a hook that changes the next ID token on its way out, and key rotation.
 */
export interface TestOidcProvider {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  signInAs(account: TestOidcAccount): void;
  tamperNextIdToken(tampering: IdTokenTampering): void;
  /** A new signing key with a new `kid`; the old one is gone from the JWKS. */
  rotateKeys(): Promise<void>;
  /**
   * Follows the provider's redirects from an authorization URL, as a browser would, until it
   * sends the browser back to the client; resolves that callback URL (not fetched).
   */
  authorize(authorizationUrl: string): Promise<URL>;
  close(): Promise<void>;
}

export interface TestOidcProviderOptions {
  /** Where the client may be sent back (a loopback URI matches on any port: a native client). */
  redirectUris: string[];
  /** A public client (PKCE only), or one with a secret (the default). */
  publicClient?: boolean;
}

interface SigningKey {
  jwk: JWK;
  privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
}

async function newSigningKey(): Promise<SigningKey> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: randomBytes(8).toString('hex'), alg: 'RS256', use: 'sig' };
  return { jwk, privateKey };
}

const accountClaims = (account: TestOidcAccount) => ({ ...account });

export async function startTestOidcProvider(options: TestOidcProviderOptions): Promise<TestOidcProvider> {
  const clientId = 'dms-test';
  const clientSecret = randomBytes(24).toString('base64url');
  let account: TestOidcAccount = { sub: 'user-1', preferred_username: 'alice' };
  let tampering: IdTokenTampering | undefined;
  let key = await newSigningKey();
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const configure = (): Provider => {
    const configuration: Configuration = {
      clients: [
        {
          client_id: clientId,
          ...(options.publicClient ? { token_endpoint_auth_method: 'none' } : { client_secret: clientSecret }),
          application_type: 'native',
          redirect_uris: options.redirectUris,
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ],
      jwks: { keys: [key.jwk] },
      findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ ...accountClaims(account), sub }) }),
      claims: { openid: ['sub'], profile: ['preferred_username', 'groups', 'role'], email: ['email'] },
      // The claims of the scopes asked for go in the ID token itself (dms reads them there).
      conformIdTokenClaims: false,
      features: { devInteractions: { enabled: false } },
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      pkce: { required: () => true },
    };
    return new Provider(issuer, configuration);
  };
  let provider = configure();

  /** Login and consent, answered at once for the account set. */
  const interact = async (req: IncomingMessage, res: ServerResponse) => {
    const details = await provider.interactionDetails(req, res);
    if (details.prompt.name === 'login') {
      await provider.interactionFinished(req, res, { login: { accountId: account.sub } }, { mergeWithLastSubmission: false });
      return;
    }
    const grant = new provider.Grant({ accountId: String(details.session?.accountId), clientId: String(details.params['client_id']) });
    grant.addOIDCScope(String(details.params['scope']));
    await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
  };

  /** The next token answer's ID token, changed as asked. */
  const tamperTokenAnswer = (res: ServerResponse, change: IdTokenTampering) => {
    const end = res.end.bind(res) as (body?: unknown) => ServerResponse;
    (res as { end: (body?: unknown) => ServerResponse }).end = (body?: unknown) => {
      if (typeof body !== 'string' && !Buffer.isBuffer(body)) return end(body);
      const answer = JSON.parse(body.toString()) as { id_token?: string };
      if (answer.id_token === undefined) return end(body);
      const payload = change.change(decodeJwt(answer.id_token));
      const [header, , signature] = answer.id_token.split('.');
      const rewritten = change.resign
        ? new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid: key.jwk.kid!, typ: 'JWT' }).sign(key.privateKey)
        : Promise.resolve(`${header}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${signature}`);
      void rewritten.then((idToken) => {
        const text = JSON.stringify({ ...answer, id_token: idToken });
        res.setHeader('Content-Length', Buffer.byteLength(text));
        end(text);
      });
      return res;
    };
  };

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', issuer).pathname;
    if (path.startsWith('/interaction/')) {
      interact(req, res).catch(() => res.writeHead(500).end());
      return;
    }
    if (path === '/token' && tampering) {
      tamperTokenAnswer(res, tampering);
      tampering = undefined;
    }
    void provider.callback()(req, res);
  });

  const cookies = new Map<string, string>();
  return {
    issuer,
    clientId,
    clientSecret,
    signInAs(next) {
      account = next;
      // A new account is a new browser: no session at the provider left from the last one.
      cookies.clear();
    },
    tamperNextIdToken: (next) => void (tampering = next),
    async rotateKeys() {
      key = await newSigningKey();
      provider = configure();
    },
    async authorize(authorizationUrl) {
      let url = new URL(authorizationUrl);
      for (let hop = 0; hop < 12; hop++) {
        if (url.origin !== issuer) return url;
        const cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
        const response = await fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });
        for (const line of response.headers.getSetCookie()) {
          const [pair = ''] = line.split(';');
          const at = pair.indexOf('=');
          cookies.set(pair.slice(0, at), pair.slice(at + 1));
        }
        const location = response.headers.get('location');
        if (location === null) throw new Error(`the provider answered ${response.status} without a redirect: ${(await response.text()).slice(0, 300)}`);
        url = new URL(location, url);
      }
      throw new Error('the provider redirected more than 12 times');
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
