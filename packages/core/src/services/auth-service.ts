import { createHash, randomBytes } from 'node:crypto';
import type { UserRecord } from '../ports/storage.js';
import type { CoreDeps } from './core-deps.js';
import type { ApiKeyPrincipal, Principal } from '../scopes/principal.js';
import { keyPrincipal } from './api-key-lineage.js';
import { userPrincipalOf } from './role-scopes.js';
import { RecentSet } from '../security/recent-set.js';
import { DomainError } from '../errors/domain-error.js';
import { hashApiKeyToken } from '../security/api-key-token.js';
import { signUserToken, verifyUserToken } from '../security/jwt-tokens.js';
import type { SettingsService } from './settings-service.js';
import { makeInternalEvent } from '../domain/events.js';
import type { Credential, PasswordCredential, SessionCredential } from '../security/credential.js';
import { whenReady, type MaybePromise } from '../ports/maybe-promise.js';
import { hasNoPassword } from '../security/no-password.js';
import type { TotpService } from './totp-service.js';
import type { SessionClient, SessionService } from './session-service.js';
import type { SecondFactor } from '../domain/totp.js';

const jwtShape = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
const touchEveryMs = 60_000;
const basicCacheTtlMs = 60_000;
const basicCacheMax = 1_000;
const keyCacheMs = 5_000;
const keyCacheMax = 10_000;

const verifiedMax = 10_000;
/** A console sign-in lasts this long unless revoked (a JWT lasts `jwt_ttl_seconds`). */
const consoleSessionMs = 30 * 24 * 3600_000;
const sessionTouchMax = 10_000;
const verifiedTtlMs = 24 * 3600_000;

export interface AuthenticateHooks {
  /** Runs right before argon2 does: where the caller's address pays for the check. */
  beforePasswordCheck?: () => Promise<void>;
  /** The caller's address: the hasher serves waiting checks fairly across addresses. */
  address?: string;
}

/** A digest of a whole password credential: the key of what is remembered about it. */
function fingerprint(credential: PasswordCredential): string {
  return createHash('sha256').update(credential.username).update('\u0000').update(credential.password).digest('base64url');
}

function credentialVersion(passwordHash: string): string {
  return createHash('sha256').update(passwordHash).digest('base64url').slice(0, 16);
}

interface CachedKey {
  principal: ApiKeyPrincipal;
  until: number;
}

export function unauthenticated(message: string): DomainError {
  return new DomainError('unauthenticated', message, { details: { authorization: [{ error: 'invalid' }] } });
}

/** What a sign-in presents beyond the password: its second factor and where it comes from. */
export interface SignInExtras {
  factor?: SecondFactor;
  client?: SessionClient;
}

/** A stored user that may not sign in or go on: deleted elsewhere, disabled. */
function refuseDisabled(user: UserRecord): void {
  if (user.disabled) throw unauthenticated('this user is disabled: ask an admin');
}

/**
 * Basic, API-key and (when configured) JWT authentication. A verified Basic credential is
 * remembered for a minute under a hash of the whole credential, so that argon2 runs once
 * per client and minute rather than on every request.
 */
export class AuthService {
  readonly #lastTouch = new Map<number, number>();
  /** When this process last wrote a session's last_used_at: at most once a minute each. */
  readonly #sessionTouch = new Map<string, number>();
  readonly #basicCache = new Map<string, { principal: Principal; until: number }>();
  readonly #keyCache = new Map<string, CachedKey>();
  readonly #sessionCache = new Map<string, { principal: Principal; until: number }>();
  /** Password checks under way, by credential fingerprint: joined, not repeated. */
  readonly #checking = new Map<string, Promise<Principal>>();
  /** Bumped whenever credentials change, so a check that straddles a change is not remembered. */
  #generation = 0;
  /** Credentials that verified before: their checks take the hasher's reserved lane. */
  readonly #verified = new RecentSet(verifiedMax, verifiedTtlMs, () => this.deps.clock().getTime());
  #dummyHash: Promise<string> | undefined;

  constructor(
    private readonly deps: CoreDeps,
    private readonly settings: SettingsService,
    private readonly jwtKey: Uint8Array,
    private readonly secondFactor: TotpService,
    private readonly sessions: SessionService,
  ) {
    // Another replica changed a password, a user or a key: what this one remembers may be stale.
    deps.events.subscribeSignals((event) => {
      if (event.name === 'credentials_changed' && event.origin === 'remote') this.forgetCredentials();
    });
  }

  /** POST /auth/login: a signed token for a user's credentials, in JWT mode only. */
  async login(
    credential: PasswordCredential,
    hooks: AuthenticateHooks = {},
    extras: SignInExtras = {},
  ): Promise<{ token: string; expires_at: string; principal: Principal; recoveryCodeUsed: boolean }> {
    const settings = await this.settings.current();
    if (!settings.jwt_enabled) {
      throw new DomainError('forbidden', 'JWT mode is off: enable it with PUT /api/v2/settings or `dms jwt enable`', {
        details: { jwt_enabled: [{ error: 'invalid', value: 'false' }] },
      });
    }
    await hooks.beforePasswordCheck?.();
    const user = await this.verifyPassword(credential, hooks.address);
    refuseDisabled(user);
    const { recoveryCodeUsed } = await this.secondFactor.check(user.id, extras.factor ?? {});
    return { ...(await this.tokenFor(user, settings.jwt_ttl_seconds, extras.client ?? {})), recoveryCodeUsed };
  }

  /**
   * JWT mode's token for a user who proved who they are (a password and second factor, an OpenID
   * provider), with the stored session it stands for (docs/decisions/179-sessions.md).
   */
  async tokenFor(user: UserRecord, ttlSeconds: number, client: SessionClient = {}): Promise<{ token: string; expires_at: string; principal: Principal }> {
    refuseDisabled(user);
    const now = this.deps.clock();
    // The token's expiry, computed as signUserToken does: the session ends with it.
    const expires = new Date((Math.floor(now.getTime() / 1000) + ttlSeconds) * 1000);
    const session = await this.sessions.start(user.id, expires, client);
    const claims = {
      userId: user.id,
      username: user.username,
      credentialVersion: credentialVersion(user.password_hash),
      epoch: await this.settings.jwtEpoch(),
      sessionId: session.id,
    };
    const { token, expiresAt } = await signUserToken(this.jwtKey, claims, now, ttlSeconds);
    return { token, expires_at: expiresAt.toISOString(), principal: await this.userPrincipal(user) };
  }

  /** The console's session credential, with its stored session, for a user who proved who they are. */
  async sessionFor(user: UserRecord, client: SessionClient = {}): Promise<{ principal: Principal; session: SessionCredential }> {
    refuseDisabled(user);
    const stored = await this.sessions.start(user.id, new Date(this.deps.clock().getTime() + consoleSessionMs), client);
    const session: SessionCredential = {
      kind: 'session',
      userId: user.id,
      username: user.username,
      credentialVersion: credentialVersion(user.password_hash),
      sessionId: stored.id,
    };
    return { principal: await this.userPrincipal(user), session };
  }

  private async jwt(token: string): Promise<Principal> {
    if (!(await this.settings.current()).jwt_enabled) throw unauthenticated('JWT mode is off');
    const claims = await verifyUserToken(this.jwtKey, token, this.deps.clock());
    if (!claims) throw unauthenticated('invalid or expired token');
    if (claims.epoch !== (await this.settings.jwtEpoch())) throw unauthenticated('the token was issued before JWT mode was last enabled');
    // The session and its user in one read (what the user alone cost before): a revoked
    // session, a deleted or disabled user, a new password each end the token here.
    const found = await this.deps.storage.sessions.findWithUser(claims.sessionId);
    if (!found || found.session.user_id !== claims.userId) throw unauthenticated('this session ended (signed out or revoked); sign in again');
    const { user } = found;
    if (user.username !== claims.username) throw unauthenticated('the token’s user no longer exists');
    if (credentialVersion(user.password_hash) !== claims.credentialVersion) throw unauthenticated('the password changed since this token was issued');
    refuseDisabled(user);
    await this.touchSession(claims.sessionId);
    return this.userPrincipal(user);
  }

  /** A user with its role's scopes as they are now (docs/decisions/176-roles.md). */
  private userPrincipal(user: UserRecord): Promise<Principal> {
    return userPrincipalOf(this.deps.storage, user);
  }

  /** Writes a session's last use at most once a minute per process: a read stays a read. */
  private touchSession(id: string): MaybePromise<void> {
    const now = this.deps.clock().getTime();
    if (now - (this.#sessionTouch.get(id) ?? 0) < touchEveryMs) return undefined;
    if (this.#sessionTouch.size >= sessionTouchMax) this.#sessionTouch.clear();
    this.#sessionTouch.set(id, now);
    return this.deps.storage.sessions.touch(id, new Date(now).toISOString());
  }

  /** Forget remembered credentials (after a password change, a key change or a deletion). */
  forgetCredentials(): void {
    this.#basicCache.clear();
    this.#keyCache.clear();
    this.#sessionCache.clear();
    this.#verified.clear();
    this.#generation += 1;
  }

  /** After a password change, a key change or a deletion: forget here and on every replica. */
  credentialsChanged(): void {
    this.forgetCredentials();
    this.deps.events.signal(makeInternalEvent('credentials_changed', 'credentials changed', this.deps.clock()));
  }

  /**
   * The principal a credential stands for. `beforePasswordCheck` runs only when a password is
   * about to be verified (argon2, tens of milliseconds of a pool thread): AccessService charges
   * the address's budget there, so a throttled guess costs nothing, while a recently verified
   * credential skips it.
   */
  authenticate(credential: Credential | undefined, hooks: AuthenticateHooks = {}): MaybePromise<Principal> {
    switch (credential?.kind) {
      case undefined:
        throw unauthenticated('authentication required');
      case 'password':
        return this.password(credential, hooks);
      case 'bearer':
        return jwtShape.test(credential.token) ? this.jwt(credential.token) : this.apiKey(credential.token);
      case 'session':
        return this.session(credential);
      case 'unreadable':
        throw unauthenticated(credential.reason);
    }
  }

  /**
   * A console sign-in: the user behind a password, and the session credential the host keeps
   * instead of the password (re-checked against storage at every use).
   */
  async startSession(
    credential: PasswordCredential,
    hooks: AuthenticateHooks = {},
    extras: SignInExtras = {},
  ): Promise<{ principal: Principal; session: SessionCredential; recoveryCodeUsed: boolean }> {
    await hooks.beforePasswordCheck?.();
    const user = await this.verifyPassword(credential, hooks.address);
    refuseDisabled(user);
    const { recoveryCodeUsed } = await this.secondFactor.check(user.id, extras.factor ?? {});
    return { ...(await this.sessionFor(user, extras.client ?? {})), recoveryCodeUsed };
  }

  /**
   * A remembered credential costs nothing; otherwise each request pays its address's budget,
   * and concurrent requests with the same credential share one argon2 check (single flight):
   * a hundred requests a client sends at once are one check, not a hundred.
   */
  private password(credential: PasswordCredential, hooks: AuthenticateHooks): MaybePromise<Principal> {
    const cacheKey = fingerprint(credential);
    const cached = this.#basicCache.get(cacheKey);
    if (cached && cached.until > this.deps.clock().getTime()) return cached.principal;
    return this.unrememberedPassword(credential, hooks, cacheKey);
  }

  private async unrememberedPassword(credential: PasswordCredential, hooks: AuthenticateHooks, cacheKey: string): Promise<Principal> {
    await hooks.beforePasswordCheck?.();
    const pending = this.#checking.get(cacheKey);
    if (pending) return pending;
    const check = this.checkPassword(credential, hooks.address, cacheKey);
    this.#checking.set(cacheKey, check);
    try {
      return await check;
    } finally {
      this.#checking.delete(cacheKey);
    }
  }

  private async checkPassword(credential: PasswordCredential, address: string | undefined, cacheKey: string): Promise<Principal> {
    const generation = this.#generation;
    const user = await this.verifyPassword(credential, address, cacheKey);
    refuseDisabled(user);
    if (await this.secondFactor.isOn(user.id)) {
      throw unauthenticated('this user signs in with a second factor (TOTP): use an API key, or sign in (POST /auth/login with totp_code) and send the token');
    }
    const principal = await this.userPrincipal(user);
    // A password changed while argon2 ran: what was checked may already be stale.
    if (generation !== this.#generation) return principal;
    if (this.#basicCache.size >= basicCacheMax) this.#basicCache.clear();
    this.#basicCache.set(cacheKey, { principal, until: this.deps.clock().getTime() + basicCacheTtlMs });
    return principal;
  }

  /**
   * A session is its user as stored now: deleted, renamed or re-passworded ends it, a changed
   * admin flag applies at once. Remembered for a few seconds like a key, and forgotten with
   * every other credential when a user or a password changes.
   */
  private session(credential: SessionCredential): MaybePromise<Principal> {
    const cacheKey = `${credential.sessionId}:${credential.userId}:${credential.credentialVersion}`;
    const now = this.deps.clock().getTime();
    const cached = this.#sessionCache.get(cacheKey);
    if (cached && cached.until > now) return cached.principal;
    return this.storedSession(credential, cacheKey, now);
  }

  private async storedSession(credential: SessionCredential, cacheKey: string, now: number): Promise<Principal> {
    const found = await this.deps.storage.sessions.findWithUser(credential.sessionId);
    if (!found || found.session.user_id !== credential.userId) throw unauthenticated('your session ended (signed out or revoked); sign in again');
    const { user } = found;
    if (user.username !== credential.username) throw unauthenticated('your user no longer exists; sign in again');
    if (credentialVersion(user.password_hash) !== credential.credentialVersion) throw unauthenticated('your password changed; sign in again');
    refuseDisabled(user);
    await this.touchSession(credential.sessionId);
    const principal = await this.userPrincipal(user);
    if (this.#sessionCache.size >= keyCacheMax) this.#sessionCache.clear();
    this.#sessionCache.set(cacheKey, { principal, until: now + keyCacheMs });
    return principal;
  }

  /**
   * An unknown user costs the same argon2 verification as a wrong password, so response
   * times do not tell which user names exist. A credential that verified before goes to the
   * hasher's reserved lane, so a flood of guesses cannot starve users who know their password.
   */
  private async verifyPassword(credential: PasswordCredential, address?: string, cacheKey = fingerprint(credential)): Promise<UserRecord> {
    const user = await this.deps.storage.users.findByUsername(credential.username);
    this.#dummyHash ??= this.deps.hasher.hash(randomBytes(16).toString('hex'));
    const lane = { address, known: this.#verified.has(cacheKey) };
    const signsInElsewhere = user !== undefined && hasNoPassword(user.password_hash);
    // A user of the OpenID provider costs the same check as any other, then is told where to sign in.
    const storedHash = !user || signsInElsewhere ? await this.#dummyHash : user.password_hash;
    const ok = await this.deps.hasher.verify(storedHash, credential.password, lane);
    if (signsInElsewhere) {
      throw unauthenticated(
        `user ${user.username} signs in through the OpenID provider and has no dms password: use single sign-on (GET /api/v2/auth/oidc/login)`,
      );
    }
    if (!user || !ok) throw unauthenticated('invalid username or password');
    this.#verified.remember(cacheKey);
    return user;
  }

  /**
   * A key is looked up once per few seconds per process: this process forgets it at once
   * when it, a key above it or a user changes; another replica's change reaches here within
   * keyCacheMs. The cache keeps the principal built from it (lineage, expiry, owner's admin
   * flag), so a request with a known key allocates nothing here.
   */
  private findKey(token: string, now: number): MaybePromise<CachedKey | undefined> {
    const keyHash = hashApiKeyToken(token);
    const cached = this.#keyCache.get(keyHash);
    if (cached && cached.until > now) return cached;
    return this.storedKey(keyHash, now);
  }

  private async storedKey(keyHash: string, now: number): Promise<CachedKey | undefined> {
    const key = await this.deps.storage.apiKeys.findByHash(keyHash);
    const principal = key && (await keyPrincipal(this.deps.storage, key));
    if (!principal) return undefined;
    if (this.#keyCache.size >= keyCacheMax) this.#keyCache.clear();
    const entry: CachedKey = { principal, until: now + keyCacheMs };
    this.#keyCache.set(keyHash, entry);
    return entry;
  }

  private apiKey(token: string): MaybePromise<Principal> {
    const now = this.deps.clock().getTime();
    return whenReady(this.findKey(token, now), (found) => {
      const key = found?.principal;
      if (!key) throw unauthenticated('unknown API key');
      if (key.expiresAt !== null && key.expiresAt <= now) throw unauthenticated('API key expired');
      const last = this.#lastTouch.get(key.keyId) ?? 0;
      if (now - last < touchEveryMs) return key;
      this.#lastTouch.set(key.keyId, now);
      return whenReady(this.deps.storage.apiKeys.touch(key.keyId, new Date(now).toISOString()), () => key);
    });
  }
}
