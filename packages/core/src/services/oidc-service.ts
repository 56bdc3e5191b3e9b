import { randomBytes } from 'node:crypto';
import type { CoreDeps } from './core-deps.js';
import type { SettingsService } from './settings-service.js';
import { auditResource, type AuditTrail } from './audit-trail.js';
import { unauthenticated } from './auth-service.js';
import { mappedRole } from './oidc-roles.js';
import type { Settings } from '../domain/settings.js';
import { oidcFallbackRole } from '../domain/oidc-settings.js';
import { usernameSchema } from '../domain/user.js';
import { parseOidcCallback } from '../domain/oidc-callback.js';
import type { Stores, UserRecord } from '../ports/storage.js';
import type { OidcIdentityRecord } from '../ports/oidc-store.js';
import { OidcRefusal, type OidcClaims, type OidcClientSettings, type OidcRelyingParty } from '../ports/oidc-relying-party.js';
import { calledFrom, type CallOrigin, type Principal } from '../scopes/principal.js';
import { DomainError, isDomainError } from '../errors/domain-error.js';
import { noPasswordHash } from '../security/no-password.js';
import { userPrincipalOf } from './role-scopes.js';
import { adminScopes } from '../scopes/built-in-roles.js';

/** How long a sign-in may stay at the provider before its state is refused. */
export const oidcLoginTtlMs = 10 * 60_000;

/** 256 random bits, base64url: what state, nonce and the PKCE verifier are made of. */
const randomToken = () => randomBytes(32).toString('base64url');

/** Who creates a user at its first sign-in, in the audit log. */
const oidcActor: Principal = { kind: 'user', userId: 0, username: 'oidc', role: 'admin', admin: true, scopes: adminScopes };

/** What a finished sign-in gives the host: the user as stored now, and whether it was just made. */
export interface OidcSignIn {
  user: UserRecord;
  principal: Principal;
  created: boolean;
}

function refused(message: string): DomainError {
  return unauthenticated(`single sign-on refused: ${message}`);
}

/** The user name a new user gets: the provider's preferred_username, else its email, else its subject. */
function usernameFrom(claims: OidcClaims): string {
  const candidates = [claims['preferred_username'], claims['email'], claims.sub].filter((value): value is string => typeof value === 'string');
  const chosen = candidates[0]!;
  if (!usernameSchema.safeParse(chosen).success) {
    throw refused(`the provider’s user name "${chosen.slice(0, 80)}" cannot be a dms user name (1 to 64 letters, digits and . _ @ -, not all digits)`);
  }
  return chosen;
}

/** Why a claim set is fit to sign anyone in; the library has checked issuer, audience, expiry, nonce and signature. */
function requireSubject(claims: OidcClaims): void {
  if (typeof claims.sub !== 'string' || claims.sub.length === 0 || claims.sub.length > 255) throw refused('the ID token has no usable subject');
}

/**
 * Sign-in through an OpenID provider (issue 46, docs/decisions/177-oidc-sign-in.md): the
 * authorization code flow with PKCE S256, state and nonce kept in storage for ten minutes and
 * taken once (any replica may receive the provider's answer, and a replayed state finds
 * nothing); users linked by issuer and subject, created at first sign-in when the settings
 * say so, with the role the provider's claim maps to.
 */
export class OidcService {
  constructor(
    private readonly deps: CoreDeps,
    private readonly settings: SettingsService,
    private readonly audit: AuditTrail,
    private readonly relyingParty: OidcRelyingParty,
  ) {}

  /** What a sign-in screen shows: whether single sign-on is on, and its button's label. Public. */
  async button(): Promise<{ enabled: boolean; label: string }> {
    const settings = await this.settings.current();
    return { enabled: settings.oidc_enabled, label: settings.oidc_button_label };
  }

  /**
   * Starts a sign-in that the provider will send back to `redirectUri` (the REST callback, or a
   * console's loopback address): stores its state, nonce and PKCE verifier, and resolves the
   * provider's URL to send the browser to.
   */
  async start(redirectUri: string): Promise<URL> {
    const settings = await this.enabledSettings();
    const client = await this.client(settings);
    const now = this.deps.clock();
    const login = { state: randomToken(), nonce: randomToken(), codeVerifier: randomToken() };
    const url = await this.asked(() => this.relyingParty.authorizationUrl(client, { ...login, redirectUri, scope: settings.oidc_scopes }));
    await this.deps.storage.oidc.savePending({
      state: login.state,
      nonce: login.nonce,
      code_verifier: this.deps.secrets.seal(login.codeVerifier),
      redirect_uri: redirectUri,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + oidcLoginTtlMs).toISOString(),
    });
    return url;
  }

  /**
   * The provider's answer (the callback's query string): the pending login taken by its state,
   * the code exchanged and the ID token verified, then the user found by issuer and subject (or
   * created), its role brought in line with the provider's claim, and the sign-in audited.
   */
  async finish(callback: URLSearchParams, origin: CallOrigin): Promise<OidcSignIn> {
    const params = parseOidcCallback(callback);
    const state = params.get('state')!;
    const pending = await this.deps.storage.oidc.takePending(state, this.deps.clock().toISOString());
    if (!pending) throw refused('this sign-in is unknown, already finished, or older than 10 minutes; start it again');
    const settings = await this.enabledSettings();
    const client = await this.client(settings);
    const claims = await this.asked(() =>
      this.relyingParty.finish(client, {
        params,
        redirectUri: pending.redirect_uri,
        state: pending.state,
        nonce: pending.nonce,
        codeVerifier: this.deps.secrets.open(pending.code_verifier),
      }),
    );
    requireSubject(claims);
    const role = mappedRole(claims, settings);
    const linked = await this.deps.storage.oidc.findIdentity(claims.iss, claims.sub);
    const signIn = linked ? await this.signInLinked(linked.user_id, role, origin) : await this.create(claims, settings, role ?? oidcFallbackRole, origin);
    await this.audit.record(signIn.principal, {
      action: 'login',
      resource: null,
      changes: { oidc_issuer: { from: null, to: claims.iss }, oidc_subject: { from: null, to: claims.sub } },
    });
    return signIn;
  }

  /** The provider identity a user signs in with, if any. */
  identityOf(userId: number): Promise<OidcIdentityRecord | undefined> {
    return this.deps.storage.oidc.findIdentityOfUser(userId);
  }

  private async signInLinked(userId: number, role: string | undefined, origin: CallOrigin): Promise<OidcSignIn> {
    const { users, oidc } = this.deps.storage;
    const now = this.deps.clock().toISOString();
    const identity = await oidc.findIdentityOfUser(userId);
    const keptRole = role ?? identity?.role ?? oidcFallbackRole;
    let user = await users.get(userId);
    if (!user) throw refused('the linked dms user no longer exists');
    // The provider says the user's role, where a role claim is set; the last admin stays one.
    if (role !== undefined && role !== user.role) {
      if (user.admin && role !== 'admin') await users.demoteUnlessLastAdmin(userId, role);
      else await users.setRole(userId, role);
      user = (await users.get(userId)) ?? user;
    }
    await oidc.touchIdentity(userId, keptRole, now);
    return { user, principal: calledFrom(await userPrincipalOf(this.deps.storage, user), origin), created: false };
  }

  private async create(claims: OidcClaims, settings: Settings, role: string, origin: CallOrigin): Promise<OidcSignIn> {
    if (!settings.oidc_auto_create) {
      throw refused(`no dms user is linked to this account of ${claims.iss}, and oidc_auto_create is off; an admin may turn it on`);
    }
    const username = usernameFrom(claims);
    const now = this.deps.clock().toISOString();
    try {
      const user = await this.audit.change(calledFrom(oidcActor, origin), async (stores: Stores) => {
        const created = await stores.users.create({ username, password_hash: noPasswordHash(), role });
        await stores.oidc.saveIdentity({ user_id: created.id, issuer: claims.iss, subject: claims.sub, role, created_at: now, signed_in_at: now });
        const changes = {
          username: { from: null, to: username },
          admin: { from: null, to: created.admin },
          role: { from: null, to: role },
          oidc_issuer: { from: null, to: claims.iss },
          oidc_subject: { from: null, to: claims.sub },
        };
        return { result: created, audit: { action: 'create' as const, resource: auditResource('users', created.id, username), changes } };
      });
      return { user, principal: calledFrom(await userPrincipalOf(this.deps.storage, user), origin), created: true };
    } catch (error) {
      if (isDomainError(error) && error.code === 'conflict') {
        throw refused(`a dms user named ${username} exists and is not linked to this account of ${claims.iss}; an admin may rename or delete it`);
      }
      throw error;
    }
  }

  private async enabledSettings(): Promise<Settings> {
    const settings = await this.settings.current();
    if (!settings.oidc_enabled || settings.oidc_issuer === null || settings.oidc_client_id === null) {
      throw new DomainError('forbidden', 'single sign-on is off: an admin turns it on with oidc_enabled in PUT /api/v2/settings', {
        details: { oidc_enabled: [{ error: 'invalid', value: 'false' }] },
      });
    }
    return settings;
  }

  private async client(settings: Settings): Promise<OidcClientSettings> {
    return { issuer: settings.oidc_issuer!, clientId: settings.oidc_client_id!, clientSecret: await this.settings.oidcClientSecret() };
  }

  /** A refusal of the provider or of the checks, as a 401 that says why. */
  private async asked<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof OidcRefusal) throw refused(error.message);
      throw error;
    }
  }
}
