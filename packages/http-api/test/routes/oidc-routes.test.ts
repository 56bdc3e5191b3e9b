import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestOidcProvider, type TestOidcProvider } from '@dms/core/testing';
import { createTestApp, type TestApp } from '../../src/testing/test-app.js';
import { expectModelError, readJson } from '../../src/testing/fixtures.js';

/**
 * Single sign-on over REST against a real OpenID provider on 127.0.0.1 (issue 46,
 * docs/decisions/177-oidc-sign-in.md): the login's redirect, the callback's token, the settings'
 * validation and write-only secret. The refusals (tampered, audience, expiry, nonce, PKCE,
 * rotation) are the core's: packages/core/src/services/oidc-sign-in.test.ts.
 */

/** The server as the provider's browser reaches it (the app runs in-process; the host is what counts). */
const server = 'http://127.0.0.1';
const api = (path: string) => `${server}/api/v2${path}`;

describe('single sign-on over REST (issue 46)', () => {
  let provider: TestOidcProvider;
  let t: TestApp;
  beforeAll(async () => {
    provider = await startTestOidcProvider({ redirectUris: [api('/auth/oidc/callback')] });
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
    await provider.close();
  });

  it('checks the OpenID settings with messages that say what is allowed, and never answers the client secret', async () => {
    const put = (body: object) => t.call('PUT', '/api/v2/settings', { auth: t.basic, body });
    await expectModelError(await put({ oidc_enabled: true }), 422, 'oidc_issuer', 'blank');
    expect(await (await put({ oidc_issuer: 'http://idp.example.com' })).text()).toMatch(/http:\/\/ only on 127\.0\.0\.1 or localhost/);
    expect(await (await put({ oidc_scopes: 'profile email' })).text()).toMatch(/must include openid/);
    expect(await (await put({ oidc_role_map: { admins: 'Admin!' } })).text()).toMatch(/must be a role name/);
    expect(await (await put({ oidc_button_label: '' })).text()).toMatch(/oidc_button_label/);

    const res = await put({
      jwt_enabled: true,
      oidc_enabled: true,
      oidc_issuer: provider.issuer,
      oidc_client_id: provider.clientId,
      oidc_client_secret: provider.clientSecret,
      oidc_role_claim: 'role',
      oidc_role_map: { 'dms-operator': 'operator', 'dms-admin': 'admin' },
      oidc_auto_create: true,
      oidc_button_label: 'Acme SSO',
    });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    expect(text).not.toContain(provider.clientSecret);
    expect(JSON.parse(text)).toMatchObject({ oidc_client_secret_set: true, oidc_scopes: 'openid profile email', oidc_button_label: 'Acme SSO' });
    expect(JSON.parse(text)).not.toHaveProperty('oidc_client_secret');
    const shown = await (await t.call('GET', '/api/v2/settings', { auth: t.basic })).text();
    expect(shown).not.toContain(provider.clientSecret);
    const audit = await (await t.call('GET', '/api/v2/audit_events?action=settings_changed&sort_by=id:desc&per_page=1', { auth: t.basic })).text();
    expect(audit).toContain('"oidc_client_secret":"changed"');
    expect(audit).not.toContain(provider.clientSecret);
    const stored = JSON.stringify(await t.storage.settings.get('oidc_client_secret'));
    expect(stored).not.toContain(provider.clientSecret);
  });

  it('redirects to the provider, answers a token (and its cookie) at the callback once, and both work; Basic is refused for that user', async () => {
    provider.signInAs({ sub: 'sub-dana', preferred_username: 'dana', role: 'dms-admin' });
    const login = await t.call('GET', api('/auth/oidc/login'));
    expect(login.status, await login.clone().text()).toBe(302);
    expect(login.headers.get('cache-control')).toBe('no-store');
    const location = new URL(login.headers.get('location')!);
    expect(location.origin).toBe(provider.issuer);
    expect(location.searchParams.get('redirect_uri')).toBe(api('/auth/oidc/callback'));
    expect(location.searchParams.get('code_challenge_method')).toBe('S256');

    const callback = await provider.authorize(location.href);
    const answer = await t.call('GET', callback.href);
    expect(answer.status, await answer.clone().text()).toBe(200);
    const { token } = await readJson<{ token: string; expires_at: string }>(answer);
    const me = await t.call('GET', '/api/v2/api_keys/current', { auth: `Bearer ${token}` });
    expect(me.status).toBe(200);
    expect(await me.text()).toContain('"dana"');
    const users = await (await t.call('GET', '/api/v2/users?username=dana', { auth: t.basic })).json();
    expect(users).toMatchObject({ count: 1, users: [{ username: 'dana', admin: true }] });

    // The browser's copy: the same token as an HttpOnly, SameSite=Lax cookie of the API (not Secure over http).
    const cookie = answer.headers.get('set-cookie')!;
    expect(cookie).toBe(`dms_session=${token}; Path=/api/v2; Max-Age=3600; HttpOnly; SameSite=Lax`);
    const byCookie = await t.call('GET', '/api/v2/api_keys/current', { headers: { cookie: `theme=dark; dms_session=${token}` } });
    expect(byCookie.status).toBe(200);
    expect(await byCookie.text()).toContain('"dana"');
    // A page of another site cannot make the browser change anything with it.
    const forged = await t.call('PUT', '/api/v2/settings', {
      body: { jwt_ttl_seconds: 120 },
      headers: { cookie: `dms_session=${token}`, 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
    });
    expect(forged.status).toBe(403);
    expect(await forged.text()).toMatch(/may not use Basic credentials or the session cookie/);

    const replay = await t.call('GET', callback.href);
    expect(replay.status).toBe(401);
    expect(await replay.text()).toMatch(/this sign-in is unknown, already finished, or older than 10 minutes/);

    const basic = await t.call('GET', '/api/v2/api_keys/current', { auth: `Basic ${Buffer.from('dana:a-guessed-password').toString('base64')}` });
    expect(basic.status).toBe(401);
    expect(await basic.text()).toMatch(/dana signs in through the OpenID provider and has no dms password/);
  });

  it('refuses a callback without a state (400) and a login while JWT mode is off (403)', async () => {
    await expectModelError(await t.call('GET', api('/auth/oidc/callback?code=x')), 400, 'state', 'blank');
    await expectModelError(await t.call('GET', api('/auth/oidc/callback?state=a&state=b')), 400, 'state', 'invalid');
    expect((await t.call('PUT', '/api/v2/settings', { auth: t.basic, body: { jwt_enabled: false } })).status).toBe(200);
    const refused = await t.call('GET', api('/auth/oidc/login'));
    expect(refused.status).toBe(403);
    expect(await refused.text()).toMatch(/JWT mode is off/);
  });
});
