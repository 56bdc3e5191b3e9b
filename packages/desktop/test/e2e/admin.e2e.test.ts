import { describe, expect, it } from 'vitest';
import { systemPrincipal } from '@dms/core';
import { chromiumMissing, signedInConsole } from './harness.js';

const skipReason = chromiumMissing('the admin screens e2e test');

describe.skipIf(skipReason !== undefined)('SNMP, API security and users screens in headless Chromium', () => {
  const c = signedInConsole();

  const main = () => c.page.getByRole('main');

  it('creates an API key with a controller / action scope, shows it once, lists it masked and revokes it', async () => {
    const { page } = c;
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(c.url).origin });
    await c.open('API keys');
    await page.getByText('No API keys yet').waitFor();

    await page.getByLabel('Name', { exact: false }).fill('backup-script');
    const grid = page.getByRole('table', { name: 'Scopes by controller and action' });
    await grid.getByRole('checkbox', { name: 'nas_shares / index', exact: true }).check();
    await grid.getByRole('checkbox', { name: 'traps / *', exact: true }).check();
    await page.getByLabel('Expires (optional)', { exact: false }).fill('2099-12-31');
    await page.getByRole('button', { name: 'Create key' }).click();

    await page.getByRole('heading', { name: 'API key backup-script created' }).waitFor();
    const key = (await page.locator('.created-key .secret').textContent()) ?? '';
    expect(key).toMatch(/^dms_[A-Za-z0-9_-]{20,}$/);
    await expect.poll(() => main().textContent()).toContain('you will not see it again');
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
    const clipboard = () => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText();
    expect(await page.evaluate(clipboard)).toBe(key);

    const row = page.getByRole('row').filter({ hasText: 'backup-script' });
    await row.waitFor();
    expect(await row.textContent()).toContain(`dms_…${key.slice(-4)}`);
    // One line for every scope, a controller once with its actions.
    expect(await row.getByRole('cell').nth(2).textContent()).toBe('nas_shares: index; traps: *');
    expect(await row.textContent()).toContain('2099');
    expect(await page.getByRole('table', { name: 'API keys' }).textContent()).not.toContain(key);
    expect(await c.capture('api-keys')).toEqual([]);

    // Away and back: the key is gone for good, the list shows it masked only.
    await c.open('Trap targets');
    await c.open('API keys');
    await row.waitFor();
    expect(await page.locator('.created-key').count()).toBe(0);
    expect(await main().textContent()).not.toContain(key);
    expect(await row.textContent()).toContain(`dms_…${key.slice(-4)}`);

    await page.getByRole('button', { name: 'Revoke API key backup-script' }).click();
    await page.getByRole('dialog', { name: 'Revoke API key backup-script' }).getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('No API keys yet').waitFor();
    expect((await c.desktop.dms.core.apiKeys.list(systemPrincipal, {})).count).toBe(0);
  });

  it('issue 46: creates an API key with a role instead of the scope grid, and lists it by its role', async () => {
    const { page } = c;
    await c.open('API keys');
    await page.getByLabel('Name', { exact: false }).fill('dashboard');
    await page.getByRole('radio', { name: 'What a role allows, as the role is at each use' }).check();
    // The grid gives way to the role menu: one or the other, never both.
    expect(await page.getByRole('table', { name: 'Scopes by controller and action' }).count()).toBe(0);
    const role = page.getByLabel('Role', { exact: true });
    expect(await role.locator('option').allTextContents()).toEqual(
      expect.arrayContaining([expect.stringMatching(/^auditor: /), expect.stringMatching(/^viewer: /)]),
    );
    await role.selectOption('viewer');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('heading', { name: 'API key dashboard created' }).waitFor();
    const row = page.getByRole('row').filter({ hasText: 'dashboard' });
    await row.waitFor();
    expect(await row.getByRole('cell').nth(2).textContent()).toMatch(/^Role viewer \(\d+ scopes as the role has them now\)$/);
    const [stored] = (await c.desktop.dms.core.apiKeys.list(systemPrincipal, {})).api_keys.filter((key) => key.name === 'dashboard');
    expect(stored).toMatchObject({ role: 'viewer' });
    // Back to the grid for the next key.
    expect(await page.getByRole('table', { name: 'Scopes by controller and action' }).count()).toBe(1);
    expect(await c.capture('api-key-role')).toEqual([]);
    await c.desktop.dms.core.apiKeys.destroy(systemPrincipal, String(stored!.id));
  });

  it('adds a cross-origin rule after the core refuses the null origin, and lists it', async () => {
    const { page } = c;
    await c.open('Cross-origin rules');
    await page.getByText('No cross-origin rules yet').waitFor();
    const origins = page.getByRole('textbox', { name: 'Origins' });
    await origins.fill('null');
    await page.getByRole('button', { name: 'Add rule' }).click();
    await expect.poll(() => origins.getAttribute('aria-invalid')).toBe('true');
    expect(await main().textContent()).toContain('origins[0] must not be null');

    await origins.fill('https://app.example.com\nreports.example.com');
    await page.getByLabel('Path', { exact: false }).fill('/api/v2/nas_shares*');
    await page.getByRole('checkbox', { name: 'PUT' }).check();
    await page.getByRole('button', { name: 'Add rule' }).click();
    const row = page.getByRole('row').filter({ hasText: 'https://app.example.com' });
    await row.waitFor();
    expect(await row.textContent()).toContain('reports.example.com');
    expect(await row.textContent()).toContain('/api/v2/nas_shares*');
    expect(await row.textContent()).toContain('GET, PUT');
    expect(await origins.inputValue()).toBe('');
    expect(await c.capture('cors-rules')).toEqual([]);
  });

  it('changes the SNMP location, which is still there after a reload', async () => {
    const { page } = c;
    await c.open('SNMP server');
    await page.getByText('this instance runs no SNMP agent').waitFor();
    expect(await page.getByLabel('Community', { exact: false }).first().getAttribute('type')).toBe('password');
    await page.getByLabel('Location', { exact: false }).fill('rack 4, room B');
    await page.getByRole('button', { name: 'Save configuration' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();

    await page.reload();
    await c.signIn();
    await c.open('SNMP server');
    await expect.poll(() => page.getByLabel('Location', { exact: false }).inputValue()).toBe('rack 4, room B');
    expect(await c.capture('snmp-server')).toEqual([]);
  });

  it('creates a trap target with a severity band from the keyboard and sends it a test trap', async () => {
    const { page } = c;
    await c.open('Trap targets');
    await page.getByText('No trap targets yet').waitFor();
    await page.getByLabel('Manager', { exact: false }).fill('127.0.0.1:10162');
    const low = page.getByRole('slider', { name: 'Lowest severity' });
    const high = page.getByRole('slider', { name: 'Highest severity' });
    const summary = page.locator('.band-summary');
    await low.press('End');
    // Linked: the lowest pushed to critical takes the highest along.
    expect(await summary.textContent()).toBe('Only critical (5)');
    await low.press('ArrowLeft');
    await low.press('ArrowLeft');
    await high.press('ArrowLeft');
    expect(await summary.textContent()).toBe('From warning (3) to error (4)');
    expect(await low.getAttribute('aria-valuetext')).toBe('warning (3)');
    await page.getByRole('button', { name: 'Add trap target' }).click();

    const row = page.getByRole('row').filter({ hasText: '127.0.0.1:10162' });
    await row.waitFor();
    expect(await row.textContent()).toContain('warning to error');
    const [stored] = (await c.desktop.dms.core.traps.list(systemPrincipal, {})).traps;
    expect(stored).toMatchObject({ manager: '127.0.0.1:10162', severity_low: 3, severity_high: 4, activation: 1 });

    await page.getByRole('button', { name: 'Send test trap to 127.0.0.1:10162' }).click();
    await row.getByRole('status').filter({ hasText: 'Test trap sent to 127.0.0.1:10162' }).waitFor();
    expect(await c.capture('traps')).toEqual([]);

    // Edit: the form opens with the target's values and takes the focus.
    await page.getByRole('button', { name: 'Edit trap target 127.0.0.1:10162' }).click();
    const heading = page.getByRole('heading', { name: 'Edit trap target 127.0.0.1:10162' });
    await expect.poll(() => heading.evaluate((element) => element === element.ownerDocument.activeElement)).toBe(true);
    expect(await summary.textContent()).toBe('From warning (3) to error (4)');
    await page.getByRole('checkbox', { name: /^Active/ }).uncheck();
    await page.getByRole('button', { name: 'Save trap target' }).click();
    await expect.poll(() => row.textContent()).toContain('inactive');
  });

  it('switches JWT mode on, explained for an admin', async () => {
    const { page } = c;
    await c.open('JWT mode');
    await page.getByText('POST /api/v2/auth/login').waitFor();
    const toggle = page.getByRole('checkbox', { name: /JWT mode/ });
    expect(await toggle.isChecked()).toBe(false);
    await toggle.check();
    await page.getByRole('button', { name: 'Save JWT mode' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved: JWT mode is on.' }).waitFor();
    expect((await c.desktop.dms.core.settings.show(systemPrincipal)).jwt_enabled).toBe(true);
    expect(await c.capture('jwt')).toEqual([]);
  });

  it('creates a user after a field error, shows the last-admin guard, and resets a password', async () => {
    const { page } = c;
    await c.open('Users');
    await page.getByRole('row').filter({ hasText: 'admin' }).waitFor();
    await page.getByLabel('User name', { exact: false }).fill('operator');
    const password = page.getByLabel('Password', { exact: false });
    await password.fill('short');
    await page.getByRole('button', { name: 'Add user' }).click();
    await expect.poll(() => password.getAttribute('aria-invalid')).toBe('true');
    expect(await main().textContent()).toContain('password is too short (minimum is 8 characters)');

    await password.fill('a long enough password');
    // A new user's role is operator unless another is chosen (docs/api.md#roles).
    expect(await page.getByLabel('Role', { exact: true }).inputValue()).toBe('operator');
    await page.getByRole('button', { name: 'Add user' }).click();
    const operatorRow = page.getByRole('row').filter({ hasText: 'operator' });
    await operatorRow.waitFor();
    const roleCell = operatorRow.getByRole('cell').nth(1);
    expect(await roleCell.textContent()).toBe('operator');

    await page.getByRole('button', { name: 'Delete user admin' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete user admin' });
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'cannot delete admin: it is the last admin' }).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await c.capture('users')).toEqual([]);

    // A change of role, audited from and to; then a password reset, the role staying as it was.
    await page.getByRole('button', { name: 'Edit user operator' }).click();
    await page.getByLabel('Role', { exact: true }).selectOption('auditor');
    await page.getByRole('button', { name: 'Save user' }).click();
    await page.getByRole('heading', { name: 'New user' }).waitFor();
    await expect.poll(() => roleCell.textContent()).toBe('auditor');
    const { audit_events: events } = await c.desktop.dms.core.auditEvents.list(systemPrincipal, {});
    expect(events.find((event) => event.action === 'update' && event.resource?.name === 'operator')?.changes).toMatchObject({
      role: { from: 'operator', to: 'auditor' },
    });
    await page.getByRole('button', { name: 'Edit user operator' }).click();
    expect(await page.getByLabel('Role', { exact: true }).inputValue()).toBe('auditor');
    await page.getByLabel('Role', { exact: true }).selectOption('operator');
    await page.getByLabel('New password', { exact: false }).fill('another long password');
    await page.getByRole('button', { name: 'Save user' }).click();
    await page.getByRole('heading', { name: 'New user' }).waitFor();
    await expect.poll(() => roleCell.textContent()).toBe('operator');
  });

  it('leaves the admin-only screens out of a non-admin’s menu, and an address of one opens the overview', async () => {
    const { page } = c;
    await page.getByRole('button', { name: 'Sign out' }).click();
    // The sign-in form, not the Users screen's own "User name" field.
    await page.getByRole('heading', { level: 1, name: 'dms console' }).waitFor();
    await page.getByLabel('User name').fill('operator');
    await page.getByLabel('Password').fill('another long password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const menu = page.getByRole('navigation', { name: 'Console' });
    // An operator's role reads no users, audit log, channels or CORS rules (docs/api.md#roles).
    for (const title of ['Users', 'Cross-origin rules', 'JWT mode', 'Audit log', 'Notifications']) {
      expect(await menu.getByRole('link', { name: title, exact: true }).count()).toBe(0);
    }
    // What a non-admin may use stays: API keys of their own, the REST server's state on Settings, what the role reads.
    for (const title of ['API keys', 'Settings', 'Trap targets', 'Jobs', 'Alert settings'])
      await menu.getByRole('link', { name: title, exact: true }).waitFor();
    await c.open('Jobs');
    await page.evaluate("location.hash = '#/users'");
    await page.getByRole('heading', { level: 1, name: 'Overview', exact: true }).waitFor();
    expect(await main().getByText('Only an admin can').count()).toBe(0);
    expect(c.cspViolations).toEqual([]);
  });

  it('shows an auditor the screens its role reads: the audit log and the users, not JWT mode', async () => {
    const { page } = c;
    await c.desktop.dms.core.users.create(systemPrincipal, { username: 'auditor-menu', password: 'auditor long password', role: 'auditor' });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'dms console' }).waitFor();
    await page.getByLabel('User name').fill('auditor-menu');
    await page.getByLabel('Password').fill('auditor long password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const menu = page.getByRole('navigation', { name: 'Console' });
    for (const title of ['Audit log', 'Users', 'Notifications', 'Alert settings', 'Cross-origin rules'])
      await menu.getByRole('link', { name: title, exact: true }).waitFor();
    expect(await menu.getByRole('link', { name: 'JWT mode', exact: true }).count()).toBe(0);
    await c.open('Audit log');
    await page.getByRole('heading', { level: 1, name: 'Audit log', exact: true }).waitFor();
    expect(c.cspViolations).toEqual([]);
  });
});
