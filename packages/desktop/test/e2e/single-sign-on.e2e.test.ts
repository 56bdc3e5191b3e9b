import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemPrincipal } from '@dms/core';
import { startTestOidcProvider, type TestOidcProvider } from '@dms/core/testing';
import { chromiumMissing, openConsole, type ConsoleHarness } from './harness.js';

const skipReason = chromiumMissing('the single sign-on e2e test');

/**
 * The console's single sign-on in headless Chromium against a real OpenID provider on 127.0.0.1
 * (issue 46, docs/decisions/177-oidc-sign-in.md). The system browser is a second page of the same
 * Chromium, sent to the URL the console asked the (injected) openExternal to open.
 */
describe.skipIf(skipReason !== undefined)('single sign-on in the console (headless Chromium)', () => {
  let provider: TestOidcProvider;
  let c: ConsoleHarness;
  const opened: string[] = [];
  beforeAll(async () => {
    // The console's loopback redirect: a native client's loopback URI matches on any port (RFC 8252).
    provider = await startTestOidcProvider({ redirectUris: ['http://127.0.0.1/callback'], publicClient: true });
    c = await openConsole({ openExternal: async (url) => void opened.push(url) });
    await c.desktop.dms.core.settings.update(systemPrincipal, {
      oidc_enabled: true,
      oidc_issuer: provider.issuer,
      oidc_client_id: provider.clientId,
      oidc_role_claim: 'groups',
      oidc_role_map: { 'dms-admins': 'admin' },
      oidc_auto_create: true,
      oidc_button_label: 'Acme SSO',
    });
  }, 120_000);
  afterAll(async () => {
    await c?.close();
    await provider?.close();
  });

  it('opens the provider in the browser, comes back to the loopback address and signs the console in', async () => {
    provider.signInAs({ sub: 'sub-erin', preferred_username: 'erin', groups: ['dms-admins'] });
    await c.page.goto(c.url);
    await c.page.getByRole('button', { name: 'Sign in with Acme SSO' }).click();
    await c.page.getByRole('status').filter({ hasText: 'Finish signing in in your browser' }).waitFor();
    await expect.poll(() => opened.length).toBe(1);
    const authorization = new URL(opened[0]!);
    expect(authorization.origin).toBe(provider.issuer);
    expect(authorization.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');

    // The "system browser": the provider signs erin in at once and sends the page to the console's loopback listener.
    const systemBrowser = await c.page.context().browser()!.newContext();
    const tab = await systemBrowser.newPage();
    await tab.goto(opened[0]!);
    await tab.getByRole('heading', { name: 'Signed in to the dms console' }).waitFor();
    await systemBrowser.close();

    await c.page.getByRole('navigation', { name: 'Console' }).waitFor();
    const erin = await c.desktop.dms.core.users.list(systemPrincipal, { username: ['erin'] });
    expect(erin.users).toMatchObject([{ username: 'erin', admin: true }]);
    expect(c.cspViolations).toEqual([]);
  });
});
