import { describe, expect, it } from 'vitest';
import { systemPrincipal } from '@dms/core';
import { chromiumMissing, signedInConsole } from './harness.js';

const skipReason = chromiumMissing('the SNMPv3 trap target e2e test');

/**
 * Issue 24, the desktop trap form: the v3 fields appear only for v3 (the community goes, the
 * notify type stays for v2c and v3), the level shows the protocols and passphrases it uses, the
 * core's refusals land under their fields, and a saved target is stored as v3; light and dark,
 * axe clean.
 */
describe.skipIf(skipReason !== undefined)('SNMPv3 trap targets in headless Chromium', () => {
  const c = signedInConsole();

  it('shows the v3 fields only for v3, and saves an authPriv inform target', async () => {
    const { page } = c;
    await c.open('Trap targets');
    const form = page.getByRole('form', { name: 'New trap target' });
    const version = form.getByLabel('Version');
    const v3Fields = form.getByRole('group', { name: 'SNMPv3 user' });

    // v2c (the default): community and notify type, no v3 user
    expect(await form.getByLabel('Community', { exact: true }).isVisible()).toBe(true);
    expect(await form.getByLabel('Notify as').isVisible()).toBe(true);
    expect(await v3Fields.count()).toBe(0);
    // v1 has no informs
    await version.selectOption('v1');
    expect(await form.getByLabel('Notify as').count()).toBe(0);

    await version.selectOption('v3');
    await v3Fields.waitFor();
    expect(await form.getByLabel('Community', { exact: true }).count()).toBe(0);
    // authPriv by default: both protocols and passphrases
    for (const label of ['Authentication protocol', 'Authentication passphrase', 'Privacy protocol', 'Privacy passphrase'])
      expect(await v3Fields.getByLabel(label, { exact: true }).isVisible(), label).toBe(true);
    await v3Fields.getByLabel('Security level').selectOption('authNoPriv');
    expect(await v3Fields.getByLabel('Privacy passphrase', { exact: true }).count()).toBe(0);
    await v3Fields.getByLabel('Security level').selectOption('noAuthNoPriv');
    expect(await v3Fields.getByLabel('Authentication passphrase', { exact: true }).count()).toBe(0);
    await v3Fields.getByLabel('Security level').selectOption('authPriv');
    expect(await c.capture('trap-v3-form')).toEqual([]);

    // the core's refusal lands under its field
    await form.getByLabel('Manager', { exact: false }).fill('127.0.0.1:10163');
    await v3Fields.getByLabel('Security name').fill('dms-notifier');
    await v3Fields.getByLabel('Authentication passphrase', { exact: true }).fill('short');
    await v3Fields.getByLabel('Privacy passphrase', { exact: true }).fill('priv-pass-R2vNs');
    await form.getByRole('button', { name: 'Add trap target' }).click();
    const auth = v3Fields.getByLabel('Authentication passphrase', { exact: true });
    await expect.poll(() => auth.getAttribute('aria-invalid')).toBe('true');
    // Named as the form names the field, not by its API name.
    expect(await form.locator('.error').first().textContent()).toBe('Authentication passphrase is too short (minimum is 8 characters)');
    expect(await form.textContent()).not.toContain('auth_passphrase');

    await auth.fill('auth-pass-Q7xLm');
    await v3Fields.getByLabel('Authentication protocol').selectOption('SHA-512');
    await v3Fields.getByLabel('Privacy protocol').selectOption('AES-256');
    await form.getByLabel('Notify as').selectOption('inform');
    await form.getByRole('button', { name: 'Add trap target' }).click();

    const row = page.getByRole('row').filter({ hasText: '127.0.0.1:10163' });
    await row.waitFor();
    expect(await row.textContent()).toContain('v3, informs as dms-notifier');
    const [stored] = (await c.desktop.dms.core.traps.list(systemPrincipal, {})).traps;
    expect(stored).toMatchObject({
      version: 'v3',
      notify_type: 'inform',
      security_name: 'dms-notifier',
      security_level: 'authPriv',
      auth_protocol: 'SHA-512',
      auth_passphrase: 'auth-pass-Q7xLm',
      priv_protocol: 'AES-256',
      priv_passphrase: 'priv-pass-R2vNs',
    });
    // The manager's snmptrapd.conf line, secrets as placeholders; an inform has no -e (the manager's own engine).
    const engineId = (await c.desktop.dms.core.snmpConfig.show(systemPrincipal)).engine_id;
    const note = page.getByRole('main').getByRole('region', { name: 'SNMP engine id' });
    expect(await note.locator('code').first().textContent()).toBe(`0x${engineId}`);
    expect(await note.getByRole('listitem').textContent()).toContain('createUser dms-notifier SHA-512 "<auth passphrase>" AES-256 "<priv passphrase>"');
    expect(await c.capture('trap-v3-list')).toEqual([]);

    // Edit: the form opens as v3 with its user; an unchanged passphrase is not sent again
    await page.getByRole('button', { name: 'Edit trap target 127.0.0.1:10163' }).click();
    const edit = page.getByRole('form', { name: 'Edit trap target 127.0.0.1:10163' });
    expect(await edit.getByLabel('Security name').inputValue()).toBe('dms-notifier');
    await edit.getByRole('group', { name: 'SNMPv3 user' }).getByLabel('Authentication protocol').selectOption('SHA-1');
    await edit.getByRole('button', { name: 'Save trap target' }).click();
    await expect.poll(() => row.textContent()).toContain('Authentication protocol SHA-1 is allowed but weak');
    const [edited] = (await c.desktop.dms.core.traps.list(systemPrincipal, {})).traps;
    expect(edited).toMatchObject({ auth_protocol: 'SHA-1', auth_passphrase: 'auth-pass-Q7xLm', priv_passphrase: 'priv-pass-R2vNs' });
    expect(c.cspViolations).toEqual([]);
  });
});
