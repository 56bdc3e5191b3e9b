import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppCaller } from '../../src/main/router/index.js';
import { adminPassword } from '../test-desktop.js';
import { chromiumMissing, openConsole, type ConsoleHarness } from './harness.js';
import { tabTo } from './keyboard.js';

const skipReason = chromiumMissing('the share form e2e test');

/** A local NAS `filer` (its root holds projects/a.txt and projects/sub/b.txt), an SMB 3 and an NFS v4 NAS. */
describe.skipIf(skipReason !== undefined)('share form: help per NAS type and Test before saving, in headless Chromium', () => {
  let c: ConsoleHarness;
  let caller: AppCaller;
  beforeAll(async () => {
    c = await openConsole();
    caller = c.desktop.caller();
    await caller.auth.signIn({ username: 'admin', password: adminPassword });
    await caller.nas.create({ name: 'filer', host: 'localhost', type: 'local' });
    await caller.nas.create({ name: 'smbfiler', host: 'localhost', type: 'smb_v3' });
    await caller.nas.create({ name: 'nfsfiler', host: 'localhost', type: 'nfs_v4' });
    await c.signIn();
    await c.open('Shares');
  }, 120_000);
  afterAll(async () => {
    await c?.close();
  });

  const newShare = () => c.page.getByRole('form', { name: 'New share' });
  const hints = async () => [await newShare().locator('#share-path-hint').textContent(), await newShare().locator('#share-options-hint').textContent()];

  it('gives each NAS type its own path hint and the options its driver reads', async () => {
    await newShare().getByLabel('NAS').selectOption({ label: 'filer' });
    // The absolute root the service allows, named; never an environment variable's name.
    await expect.poll(async () => (await hints())[0]).toContain(c.desktop.root);
    const [localPath, localOptions] = await hints();
    expect(localPath).toBe(`A folder under this local share root: ${c.desktop.root}; such as projects (a relative path lies in the first root).`);
    expect(localPath).not.toMatch(/DMS_|\$/);
    expect(await c.capture('share-form-local-hint')).toEqual([]);
    expect(localOptions).toBe('A local share takes no options: leave this empty.');

    await newShare().getByLabel('NAS').selectOption({ label: 'smbfiler' });
    await expect.poll(async () => (await hints())[1]).toContain('port=445');
    const [smbPath, smbOptions] = await hints();
    expect(smbPath).toMatch(/^The SMB share’s name, then any folder inside it: DATA or DATA\/projects/);
    expect(smbOptions).toContain('domain=WORKGROUP');
    expect(smbOptions).not.toContain('vers=');
    // The hint is the field's description, as a screen reader announces it.
    expect(await newShare().getByLabel('Mount options (optional)').getAttribute('aria-describedby')).toBe('share-options-hint');
    expect(await c.capture('share-form-smb-hints')).toEqual([]);

    await newShare().getByLabel('NAS').selectOption({ label: 'nfsfiler' });
    await expect.poll(async () => (await hints())[1]).toContain('port=2049');
    const [nfsPath, nfsOptions] = await hints();
    expect(nfsPath).toContain('/export/projects');
    expect(nfsOptions).toContain('mountport=');
    expect(nfsOptions).not.toContain('sec=');
  });

  it('tests a new share before saving it with the keyboard alone, showing its steps, and saves nothing', async () => {
    // A fresh form on the first NAS (filer).
    await c.open('NAS');
    await c.open('Shares');
    expect(await newShare().getByLabel('NAS').inputValue()).toBe(String((await caller.nas.show({ nas: 'filer' })).id));
    await tabTo(c.page, 'Share name');
    await c.page.keyboard.type('projects');
    await c.page.keyboard.press('Tab');
    await c.page.keyboard.type('projects');
    await tabTo(c.page, 'Test before saving');
    await c.page.keyboard.press('Enter');

    const panel = newShare().locator('.job-panel');
    await panel.and(c.page.locator('[data-status="completed"]')).waitFor();
    expect(await panel.getByRole('status').textContent()).toBe('Test of projects on filer: completed · 2 of 2 steps');
    const steps = newShare().getByRole('list', { name: 'Steps of the test of projects on filer' }).getByRole('listitem');
    expect(await steps.nth(0).textContent()).toMatch(/^Open path ok/);
    expect(await steps.nth(1).textContent()).toMatch(/^List entries ok/);
    expect(await panel.locator('.job-message').textContent()).toMatch(/^opened 'projects', 2 entries listed \(host path: \/.*\/projects\)$/);
    expect((await caller.shares.list()).count).toBe(0);
    expect(await c.capture('share-form-test')).toEqual([]);

    // A path that is not there: the failed step says why, the next is skipped.
    await tabTo(c.page, 'Path', { backward: true });
    await c.page.keyboard.press('Control+A');
    await c.page.keyboard.type('no/such/dir');
    await tabTo(c.page, 'Test before saving');
    await c.page.keyboard.press('Enter');
    await panel.and(c.page.locator('[data-status="failed"]')).waitFor();
    expect(await steps.nth(0).textContent()).toMatch(
      /^Open path failed \(\d+ ms\) – path 'no\/such\/dir' not found on share \(host path: \/.+\/no\/such\/dir\)$/,
    );
    expect(await steps.nth(1).textContent()).toMatch(/^List entries skipped/);
    expect((await caller.shares.list()).count).toBe(0);
  });

  it('shows the core’s refusal of a test under the field it names', async () => {
    await newShare().getByLabel(/^Path/).fill('projects');
    await newShare().getByLabel('Mount options (optional)').fill('ro, vers=3');
    await newShare().getByRole('button', { name: 'Test before saving' }).click();
    await expect.poll(() => newShare().locator('#share-options-error').textContent()).toContain('comma-separated');
    expect(await newShare().locator('.job-panel').getAttribute('data-status')).toBe('refused');
  });

  it('on edit, tests the saved share when nothing that reaches it changed, and says a stored password is not sent with edited values', async () => {
    await caller.shares.create({ nas: 'filer', body: { name: 'saved', path: 'projects', username: 'bob', password: 'a secret' } });
    await c.open('NAS');
    await c.open('Shares');
    await c.page.getByRole('button', { name: 'Edit saved on filer' }).click();
    const edit = c.page.getByRole('form', { name: 'Edit share saved on filer' });
    await edit.getByRole('button', { name: 'Test before saving' }).click();
    await edit.getByRole('note').getByText('Nothing that reaches the share changed: testing the saved share with its stored password.').waitFor();
    await edit.locator('.job-panel[data-status="completed"]').waitFor();
    const saved = await caller.shares.show({ share: 'saved', scope: { nas: 'filer' } });
    expect((await caller.jobs.list({ nas_share_id: String(saved.id) })).count).toBe(1);

    await edit.getByLabel(/^Path/).fill('projects/sub');
    await edit.getByRole('button', { name: 'Test before saving' }).click();
    await edit
      .getByRole('note')
      .getByText(/^The stored password cannot be sent with an unsaved test/)
      .waitFor();
    await edit.locator('.job-panel[data-status="completed"]').waitFor();
    expect(await edit.getByRole('list', { name: 'Steps of the test of saved on filer' }).getByRole('listitem').count()).toBe(2);
    expect(await edit.locator('.job-message').textContent()).toMatch(/^opened '.*projects\/sub', 1 entry listed \(host path: \/.*\/projects\/sub\)$/);
    // The unsaved test is not the share's: its job count is unchanged, and its path is as saved.
    expect((await caller.jobs.list({ nas_share_id: String(saved.id) })).count).toBe(1);
    expect((await caller.shares.show({ share: 'saved', scope: { nas: 'filer' } })).path).toBe('projects');
    expect(await c.capture('share-form-edit-test')).toEqual([]);
  });

  it('keeps a test that passed before saving as the new share’s latest test: the row reads OK, not Unknown', async () => {
    await c.open('NAS');
    await c.open('Shares');
    await newShare().getByLabel('NAS').selectOption({ label: 'filer' });
    await newShare().getByLabel('Share name').fill('adopted');
    await newShare().getByLabel(/^Path/).fill('projects');
    await newShare().getByRole('button', { name: 'Test before saving' }).click();
    await newShare().locator('.job-panel[data-status="completed"]').waitFor();
    await newShare().getByRole('button', { name: 'Create share' }).click();
    await c.page.getByRole('status').filter({ hasText: 'Share adopted on filer created.' }).waitFor();
    const row = c.page
      .getByRole('table', { name: 'Shares' })
      .getByRole('row')
      .filter({ has: c.page.getByRole('cell', { name: 'adopted', exact: true }) });
    await expect.poll(() => row.locator('.health').textContent()).toBe('OK');
    const share = await caller.shares.show({ share: 'adopted', scope: { nas: 'filer' } });
    expect(share).toMatchObject({ health: 'ok', last_test_status: 'completed' });
    // The job list shows that test against the new share.
    expect((await caller.jobs.list({ nas_share_id: String(share.id), kind: 'share_test' })).count).toBe(1);
    expect(await c.capture('share-form-adopted-test')).toEqual([]);
  });
});
