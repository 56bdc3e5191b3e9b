import { afterAll, afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { describeOnEachAdapter, testAdmin, type TestCore } from '../testing/core-on-each-adapter.js';
import { startTestOidcProvider, type TestOidcProvider } from '../testing/oidc-provider.js';
import { refusalOf } from '../testing/domain-outcome.js';
import { calledFrom, systemPrincipal, type CallOrigin } from '../scopes/principal.js';

/** The console's loopback address (a native client's loopback URI matches on any port). */
const redirectUri = 'http://127.0.0.1:50123/callback';
const origin: CallOrigin = { via: 'rest', clientAddress: '192.0.2.7', requestId: 'oidc-test' };
const admin = calledFrom(systemPrincipal, origin);

let provider: TestOidcProvider;
beforeAll(async () => {
  provider = await startTestOidcProvider({ redirectUris: ['http://127.0.0.1/callback'] });
});
afterAll(() => provider.close());

describeOnEachAdapter('single sign-on through a real OpenID provider (issue 46)', (open) => {
  let test: TestCore;
  /** Moves the core's clock (the provider keeps the real one). */
  let offsetMs = 0;
  beforeEach(async () => {
    offsetMs = 0;
    test = await open({ clock: () => new Date(Date.now() + offsetMs) });
    await test.core.settings.update(admin, {
      oidc_enabled: true,
      oidc_issuer: provider.issuer,
      oidc_client_id: provider.clientId,
      oidc_client_secret: provider.clientSecret,
      oidc_role_claim: 'groups',
      oidc_role_map: { 'dms-admins': 'admin', 'dms-ops': 'operator' },
      oidc_auto_create: true,
    });
    provider.signInAs({ sub: 'sub-alice', preferred_username: 'alice', email: 'alice@example.test', groups: ['staff', 'dms-admins'] });
  });
  afterEach(async () => {
    vi.useRealTimers();
    await test.close();
  });

  /** A sign-in started, answered by the provider, and the callback's query string. */
  const atProvider = async () => new URL(await provider.authorize(String(await test.core.oidc.start(redirectUri)))).searchParams;
  const signIn = async () => test.core.oidc.finish(await atProvider(), origin);
  const userCount = async () => (await test.core.users.list(admin, {})).count;

  it('creates the user at first sign-in with the mapped role, links it by issuer and subject, audits both, and refuses it Basic', async () => {
    const authorization = new URL(String(await test.core.oidc.start(redirectUri)));
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization.searchParams.get('nonce')).toMatch(/^[\w-]{43}$/);
    expect(authorization.searchParams.get('scope')).toBe('openid profile email');

    const first = await signIn();
    expect(first).toMatchObject({ created: true, user: { username: 'alice', admin: true } });
    const again = await signIn();
    expect(again).toMatchObject({ created: false, user: { id: first.user.id, admin: true } });

    // The provider moves alice out of the admins' group: she is a viewer at her next sign-in.
    provider.signInAs({ sub: 'sub-alice', preferred_username: 'alice', groups: ['staff'] });
    expect((await signIn()).user).toMatchObject({ id: first.user.id, admin: false });
    expect(await test.core.oidc.identityOf(first.user.id)).toMatchObject({ issuer: provider.issuer, subject: 'sub-alice', role: 'viewer' });

    const { audit_events: events } = await test.core.auditEvents.list(admin, { per_page: ['100'], sort_by: ['id'] });
    const created = events.find((event) => event.action === 'create' && event.resource?.name === 'alice');
    expect(created).toMatchObject({ actor: { kind: 'system', name: 'oidc' }, changes: { role: { to: 'admin' }, oidc_subject: { to: 'sub-alice' } } });
    const logins = events.filter((event) => event.action === 'login' && event.actor.name === 'alice');
    expect(logins).toHaveLength(3);
    expect(logins[0]).toMatchObject({ client_address: '192.0.2.7', changes: { oidc_issuer: { to: provider.issuer }, oidc_subject: { to: 'sub-alice' } } });

    const basic = await refusalOf(test.asUser('alice', 'any-password-at-all'));
    expect(basic.message).toMatch(/alice signs in through the OpenID provider and has no dms password/);
    const password = await refusalOf(test.core.users.update(admin, 'alice', { password: 'a-password-of-her-own' }));
    expect(password).toMatchObject({ code: 'validation', message: 'alice signs in through the OpenID provider and has no dms password' });
  });

  it('gives a user whose groups map to no role the viewer role, and refuses a new user when auto-create is off', async () => {
    provider.signInAs({ sub: 'sub-bob', preferred_username: 'bob', groups: ['elsewhere'] });
    expect((await signIn()).user).toMatchObject({ username: 'bob', admin: false });
    await test.core.settings.update(admin, { oidc_auto_create: false });
    provider.signInAs({ sub: 'sub-carol', preferred_username: 'carol' });
    const before = await userCount();
    expect((await refusalOf(signIn())).message).toMatch(/no dms user is linked to this account .* oidc_auto_create is off/);
    expect(await userCount()).toBe(before);
  });

  it('refuses a user name already held by a dms user not linked to the account', async () => {
    provider.signInAs({ sub: 'sub-mallory', preferred_username: testAdmin.username });
    expect((await refusalOf(signIn())).message).toMatch(/a dms user named admin exists and is not linked/);
  });

  const refusedWithNothingCreated = async (message: RegExp) => {
    const before = await userCount();
    const refusal = await refusalOf(signIn());
    expect(refusal.code).toBe('unauthenticated');
    expect(refusal.message).toMatch(/^single sign-on refused: /);
    expect(refusal.message).toMatch(message);
    expect(await userCount()).toBe(before);
  };

  it('refuses an ID token changed after the provider signed it', async () => {
    provider.tamperNextIdToken({ resign: false, change: (payload) => ({ ...payload, sub: 'sub-someone-else' }) });
    await refusedWithNothingCreated(/signature/i);
  });

  it('refuses an ID token made for another client (audience)', async () => {
    provider.tamperNextIdToken({ resign: true, change: (payload) => ({ ...payload, aud: 'another-client' }) });
    await refusedWithNothingCreated(/"aud"/);
  });

  it('refuses an expired ID token', async () => {
    const past = Math.floor(Date.now() / 1000) - 3600;
    provider.tamperNextIdToken({ resign: true, change: (payload) => ({ ...payload, iat: past - 60, exp: past }) });
    await refusedWithNothingCreated(/"exp"/);
  });

  it('refuses an ID token with another nonce', async () => {
    provider.tamperNextIdToken({ resign: true, change: (payload) => ({ ...payload, nonce: 'not-the-nonce-dms-sent' }) });
    await refusedWithNothingCreated(/nonce/);
  });

  it('takes a state once: the same callback replayed is refused, on this replica or another', async () => {
    const callback = await atProvider();
    await test.core.oidc.finish(callback, origin);
    const replay = await refusalOf(test.core.oidc.finish(callback, origin));
    expect(replay.message).toMatch(/this sign-in is unknown, already finished, or older than 10 minutes/);
    // What the other replica sees: the pending login is gone from storage.
    const storage = await test.sameStorage();
    expect(await storage.oidc.takePending(callback.get('state')!, new Date().toISOString())).toBeUndefined();
  });

  it('refuses a code with another sign-in’s PKCE verifier (a code carried into another login)', async () => {
    const stolen = await atProvider();
    const own = await atProvider();
    const crossed = new URLSearchParams({ code: stolen.get('code')!, state: own.get('state')!, iss: provider.issuer });
    const before = await userCount();
    const refusal = await refusalOf(test.core.oidc.finish(crossed, origin));
    expect(refusal.message).toMatch(/the provider refused the sign-in: invalid_grant/);
    expect(await userCount()).toBe(before);
  });

  it('refuses a state after its ten minutes, and a callback without a state', async () => {
    const callback = await atProvider();
    offsetMs = 10 * 60_000 + 1_000;
    expect((await refusalOf(test.core.oidc.finish(callback, origin))).message).toMatch(/older than 10 minutes/);
    const missing = await refusalOf(test.core.oidc.finish(new URLSearchParams({ code: 'x' }), origin));
    expect(missing).toMatchObject({ code: 'bad_request' });
  });

  it('signs in again after the provider rotated its signing key (the JWKS is read again for the unknown kid)', async () => {
    await signIn();
    await provider.rotateKeys();
    // The library reads the JWKS again for an unknown kid once its copy is a minute old.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61_000 });
    expect(await signIn()).toMatchObject({ created: false, user: { username: 'alice' } });
  });
});
