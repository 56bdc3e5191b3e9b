import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemPrincipal } from '@dms/core';
import { createTestApp, type TestApp } from '../../src/testing/test-app.js';
import { addNas, expectModelError } from '../../src/testing/fixtures.js';

/**
 * Issue 40 item 2: a page of another origin must not make the browser use the Basic credentials
 * it holds for an unsafe method, whatever the body (a bodiless POST needs no preflight). What a
 * browser says of the origin (`Sec-Fetch-Site`, else `Origin`) decides; a stored CORS rule for
 * that origin, path and method allows it; Bearer credentials are never sent by the browser on
 * its own and keep working across origins.
 */
let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(() => t.close());

const elsewhere = 'http://127.0.0.1:1';
const newUser = (username: string) => ({ username, password: 'forged-password-123', admin: true });
const usernames = async () => (await t.core.users.list(systemPrincipal, { per_page: ['100'] })).users.map((user) => user.username);

describe('issue 40 item 2: unsafe methods with ambient credentials from another origin', () => {
  it.each<[string, Record<string, string>]>([
    ['Origin of another port', { origin: elsewhere }],
    ['Origin of another host', { origin: 'https://evil.example' }],
    ['the null Origin', { origin: 'null' }],
    ['Sec-Fetch-Site: cross-site, no Origin', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site: same-site', { 'sec-fetch-site': 'same-site', origin: elsewhere }],
    ['Sec-Fetch-Site: cross-site with this very Origin', { 'sec-fetch-site': 'cross-site', origin: 'http://localhost' }],
  ])('issue 40 item 2: refuses a Basic POST with %s (403), before the body or the credential is read', async (_label, headers) => {
    const res = await t.call('POST', '/api/v2/users', { auth: t.basic, body: newUser('forged'), headers });
    const body = await expectModelError(res, 403, 'origin', 'forbidden');
    expect(body.messages.join(' ')).toMatch(/Basic credentials.*CORS rule/);
    expect(await usernames()).not.toContain('forged');
    // Refused before authentication: a wrong password from there is refused the same, not counted as a failure.
    const wrong = `Basic ${Buffer.from('admin:not-the-password').toString('base64')}`;
    expect((await t.call('POST', '/api/v2/users', { auth: wrong, body: newUser('forged'), headers })).status).toBe(403);
  });

  it('issue 40 item 2: refuses a bodiless unsafe request from another site (DELETE, POST of a scan)', async () => {
    const nas = await addNas(t, { name: 'kept-nas' });
    const headers = { 'sec-fetch-site': 'cross-site', origin: elsewhere };
    await expectModelError(await t.app.request(`/api/v2/nas/${nas.id}`, { method: 'DELETE', headers: { authorization: t.basic, ...headers } }), 403, 'origin');
    await expectModelError(
      await t.app.request('/api/v2/nas_shares/1/scan', { method: 'POST', headers: { authorization: t.basic, ...headers } }),
      403,
      'origin',
    );
    expect((await t.call('GET', `/api/v2/nas/${nas.id}`, { auth: t.basic })).status).toBe(200);
  });

  it('lets the same request through from the same origin, from outside a browser, or for a safe method', async () => {
    const sameOrigin = await t.call('POST', '/api/v2/users', {
      auth: t.basic,
      body: newUser('same-origin'),
      headers: { 'sec-fetch-site': 'same-origin', origin: 'http://localhost' },
    });
    expect(sameOrigin.status, await sameOrigin.clone().text()).toBe(201);
    // An older browser without Sec-Fetch-Site: Origin against the Host it was sent to.
    const byHost = await t.call('POST', '/api/v2/users', { auth: t.basic, body: newUser('by-host'), headers: { origin: 'http://localhost' } });
    expect(byHost.status, await byHost.clone().text()).toBe(201);
    // Typed into the address bar (none) or sent by curl (no browser header at all).
    expect((await t.call('POST', '/api/v2/users', { auth: t.basic, body: newUser('typed'), headers: { 'sec-fetch-site': 'none' } })).status).toBe(201);
    expect((await t.call('POST', '/api/v2/users', { auth: t.basic, body: newUser('curl') })).status).toBe(201);
    expect((await t.call('GET', '/api/v2/users', { auth: t.basic, headers: { 'sec-fetch-site': 'cross-site', origin: elsewhere } })).status).toBe(200);
    expect(await usernames()).toEqual(expect.arrayContaining(['same-origin', 'by-host', 'typed', 'curl']));
  });

  it('lets a Bearer credential through from another origin, and Basic once a CORS rule allows that origin, path and method', async () => {
    const headers = { 'sec-fetch-site': 'cross-site', origin: elsewhere };
    const bearer = await t.bearer('nas/create');
    expect((await t.call('POST', '/api/v2/nas', { auth: bearer, body: { name: 'by-key', host: 'nas.example', type: 'smb_v3' }, headers })).status).toBe(201);
    const rule = await t.call('POST', '/api/v2/cors_rules', { auth: t.basic, body: { origins: [elsewhere], path: '/api/v2/users', methods: ['POST'] } });
    expect(rule.status).toBe(201);
    const allowed = await t.call('POST', '/api/v2/users', { auth: t.basic, body: newUser('allowed'), headers });
    expect(allowed.status, await allowed.clone().text()).toBe(201);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(elsewhere);
    // The rule is for that method and path only.
    expect((await t.call('DELETE', '/api/v2/users/allowed', { auth: t.basic, headers })).status).toBe(403);
  });
});
