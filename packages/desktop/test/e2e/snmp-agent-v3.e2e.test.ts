import { describe, expect, it } from 'vitest';
import { systemPrincipal } from '@dms/core';
import { freeUdpPort } from '@dms/core/testing';
import { chromiumMissing, signedInConsole } from './harness.js';

const skipReason = chromiumMissing('the SNMP agent e2e test');

/**
 * Issue 24, the agent in the console: turned on at an address and port (a real agent binds
 * it), off again, and the saved note says what the agent does (never that an agent that is off
 * uses the configuration); SNMPv3 users added and removed; light and dark, axe clean.
 */
describe.skipIf(skipReason !== undefined)('the SNMP agent in headless Chromium', () => {
  const c = signedInConsole();

  it('turns the agent on and off, with an honest saved note, and keeps v3 users', async () => {
    const { page } = c;
    await c.open('SNMP server');
    const form = page.getByRole('form', { name: 'Agent configuration' });
    const note = form.getByRole('status');
    const enabled = form.getByLabel('Run the SNMP agent');
    expect(await enabled.isChecked()).toBe(false);
    expect(await page.locator('.agent-state').textContent()).toContain('Off');

    // a save while off never claims the agent uses it
    await form.getByLabel('Location').fill('Rack 7');
    await form.getByRole('button', { name: 'Save configuration' }).click();
    await expect.poll(() => note.textContent()).toBe('Saved. The agent is off: the configuration applies when it is turned on.');

    // a bad port is refused under its field
    await enabled.check();
    await form.getByLabel('UDP port').fill('70000');
    await form.getByRole('button', { name: 'Save configuration' }).click();
    await expect.poll(() => form.getByLabel('UDP port').getAttribute('aria-invalid')).toBe('true');
    expect(await form.textContent()).toContain('UDP port must be between 1 and 65535');
    expect(await form.textContent()).not.toContain('agent_port');

    const port = await freeUdpPort();
    await form.getByLabel('UDP port').fill(String(port));
    await form.getByRole('button', { name: 'Save configuration' }).click();
    await expect.poll(() => note.textContent(), { timeout: 10_000 }).toBe('Saved: the agent uses the new configuration.');
    expect(c.desktop.dms.snmpAgent()).toEqual({ state: 'listening', address: '127.0.0.1', port });
    await expect.poll(() => page.locator('.agent-state').textContent()).toContain(`Listening on UDP 127.0.0.1:${port}`);

    // a v3 user: added, listed without its passphrases, kept when another is added
    const users = page.getByRole('form', { name: 'Add or replace an SNMPv3 user' });
    await users.getByLabel('Security name').fill('nms');
    await users.getByLabel('Authentication passphrase', { exact: true }).fill('auth-pass-Q7xLm');
    await users.getByLabel('Privacy passphrase', { exact: true }).fill('priv-pass-R2vNs');
    await users.getByRole('button', { name: 'Save user' }).click();
    const row = page.getByRole('row').filter({ hasText: 'nms' });
    await row.waitFor();
    expect(await row.textContent()).toContain('authPriv');
    await users.getByLabel('Security name').fill('legacy');
    await users.getByLabel('Security level').selectOption('authNoPriv');
    await users.getByLabel('Authentication protocol').selectOption('SHA-1');
    await users.getByLabel('Authentication passphrase', { exact: true }).fill('legacy-pass-1');
    await users.getByRole('button', { name: 'Save user' }).click();
    await page.getByText('legacy: Authentication protocol SHA-1 is allowed but weak').waitFor();
    const stored = await c.desktop.dms.core.snmpConfig.show(systemPrincipal);
    expect(stored.users.map((user) => [user.security_name, user.auth_passphrase])).toEqual([
      ['nms', 'auth-pass-Q7xLm'],
      ['legacy', 'legacy-pass-1'],
    ]);
    // The engine id traps leave from, and a trap target's snmptrapd.conf line to copy (secrets as placeholders).
    const engine = page.getByRole('region', { name: 'SNMP engine id' });
    const engineId = (await c.desktop.dms.core.snmpConfig.show(systemPrincipal)).engine_id!;
    expect(engineId).toMatch(/^[0-9a-f]{10,64}$/);
    expect(await engine.locator('code').first().textContent()).toBe(`0x${engineId}`);
    const lines = await engine.getByRole('listitem').locator('code').allTextContents();
    expect(lines).toEqual([`createUser -e 0x${engineId} <user> SHA-256 "<auth passphrase>" AES "<priv passphrase>"`]);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(c.url).origin });
    await engine.getByRole('button', { name: 'Copy the snmptrapd.conf line' }).click();
    const clipboard = () => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText();
    expect(await page.evaluate(clipboard)).toBe(lines[0]);
    expect(await c.capture('snmp-agent-on')).toEqual([]);

    await page.getByRole('button', { name: 'Remove SNMPv3 user legacy' }).click();
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'legacy' }).count()).toBe(0);

    // off: the agent stops at once and the note says so
    await enabled.uncheck();
    await form.getByRole('button', { name: 'Save configuration' }).click();
    await expect.poll(() => note.textContent(), { timeout: 10_000 }).toBe('Saved. The agent is off: the configuration applies when it is turned on.');
    expect(c.desktop.dms.snmpAgent()).toEqual({ state: 'off' });
    expect(await c.capture('snmp-agent-off')).toEqual([]);
    expect(c.cspViolations).toEqual([]);
  });
});
