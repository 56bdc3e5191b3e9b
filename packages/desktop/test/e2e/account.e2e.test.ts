import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { systemPrincipal } from '@dms/core';
import { adminPassword } from '../test-desktop.js';
import { chromiumMissing, openConsole, type ConsoleHarness } from './harness.js';

const skipReason = chromiumMissing('the account (two-factor, sessions) e2e test');

/**
 * Issue 46 in the console (docs/decisions/178-totp-second-factor.md, docs/decisions/179-sessions.md):
 * "Your account" sets up two-factor sign-in with the QR code, the test computing the code from the
 * secret shown as an authenticator app would; the recovery codes are shown once; the next sign-in
 * asks for a code; the sessions list revokes a session.
 */
describe.skipIf(skipReason !== undefined)('your account: two-factor and sessions in headless Chromium', () => {
  let c: ConsoleHarness;
  beforeAll(async () => {
    c = await openConsole();
  }, 120_000);
  afterAll(async () => {
    await c?.close();
  });

  const twoFactor = () => c.page.getByRole('region', { name: 'Two-factor' });
  const codeNow = (secret: string) => generate({ secret, epoch: Math.floor(c.desktop.dms.core.clock().getTime() / 1000) });

  it('sets up two-factor sign-in from the QR code’s secret and shows 10 recovery codes once', async () => {
    await c.signIn();
    await c.open('Your account');
    await twoFactor().getByRole('status').filter({ hasText: 'Off' }).waitFor();
    await twoFactor().getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    await twoFactor().getByRole('img', { name: 'QR code of the authenticator secret' }).locator('svg').waitFor();
    const secret = (await twoFactor().getByLabel('Authenticator secret', { exact: true }).textContent())!.trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(await c.capture('account-two-factor-set-up')).toEqual([]);
    await twoFactor()
      .getByLabel('Code from your app')
      .fill(await codeNow(secret));
    await twoFactor().getByRole('button', { name: 'Turn on' }).click();
    const codes = twoFactor().getByRole('status', { name: 'Recovery codes' });
    await codes.waitFor();
    expect(await codes.locator('li').count()).toBe(10);
    await twoFactor().getByRole('status').filter({ hasText: 'On: sign-in asks for a code. 10 recovery codes left.' }).waitFor();
    expect(c.cspViolations).toEqual([]);

    // Signed out and in again: the password alone is not enough; a recovery code shown above is.
    const recovery = (await codes.locator('li').first().textContent())!.trim();
    await c.page.getByRole('button', { name: 'Sign out' }).click();
    await c.page.getByLabel('User name').fill('admin');
    await c.page.getByLabel('Password').fill(adminPassword);
    await c.page.getByRole('button', { name: 'Sign in' }).click();
    await c.page.getByText('Enter the code your authenticator app shows.').waitFor();
    await c.page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await c.page.getByLabel('Recovery code').fill(recovery);
    await c.page.getByRole('button', { name: 'Sign in' }).click();
    await c.page.getByRole('navigation', { name: 'Console' }).waitFor();
    expect((await c.desktop.dms.core.auditEvents.list(systemPrincipal, {})).audit_events.map((e) => e.action)).toContain('recovery_code_used');
  });

  it('lists sessions and revokes one: a REST token of that session is refused after', async () => {
    const core = c.desktop.dms.core;
    const system = systemPrincipal;
    await core.settings.update(system, { jwt_enabled: true });
    await core.users.create(system, { username: 'bob', password: 'bob-password-1' });
    const { token } = await core.access.login(
      { address: '192.0.2.9', credential: { kind: 'password', username: 'bob', password: 'bob-password-1' } },
      { client: { userAgent: 'curl/8.0', ip: '192.0.2.9' } },
    );
    await c.open('Overview');
    await c.open('Your account');
    const sessions = c.page.getByRole('region', { name: 'Sessions' });
    const revoke = sessions.getByRole('button', { name: /Revoke session curl\/8\.0/ });
    await revoke.waitFor();
    await revoke.click();
    await expect.poll(() => revoke.count()).toBe(0);
    await expect(core.auth.authenticate({ kind: 'bearer', token })).rejects.toThrow(/session ended/);
  });
});
