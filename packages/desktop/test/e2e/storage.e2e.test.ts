import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import type { AppCaller } from '../../src/main/router/index.js';
import { adminPassword } from '../test-desktop.js';
import { chromiumMissing, openConsole, type ConsoleHarness } from './harness.js';

/** Waits until the element has the keyboard focus (screens move it a frame after a click). */
const focused = (element: Locator) => expect.poll(() => element.evaluate((node) => node === node.ownerDocument.activeElement)).toBe(true);

/** The slice of a <progress> element these tests read. */
type Meter = { value: number; max: number };

const skipReason = chromiumMissing('the storage screens e2e test');

/** The test desktop's local root holds projects/a.txt (3 bytes) and projects/sub/b.txt (5 bytes). */
describe.skipIf(skipReason !== undefined)('storage screens (NAS, pools, shares) in headless Chromium', () => {
  let c: ConsoleHarness;
  let caller: AppCaller;
  let missingId = 0;
  beforeAll(async () => {
    c = await openConsole();
    caller = c.desktop.caller();
    await caller.auth.signIn({ username: 'admin', password: adminPassword });
    await c.signIn();
  }, 120_000);
  afterAll(async () => {
    await c?.close();
  });

  const row = (table: Locator, name: string) => table.getByRole('row').filter({ has: c.page.getByRole('cell', { name, exact: true }) });
  const sharesTable = () => c.page.getByRole('table', { name: 'Shares' });
  // The shares' names: the first column after the bulk selection's checkboxes.
  const firstCells = async (table: Locator) => (await table.locator('tbody > tr:not(.job-row) > td:nth-child(2)').allTextContents()).map((text) => text.trim());

  it('says what to do first, then adds a NAS through its form after a field error', async () => {
    await c.open('Shares');
    await c.page.getByText('No NAS yet').waitFor();
    expect(await c.page.getByRole('link', { name: 'NAS screen' }).getAttribute('href')).toBe('#/nas');

    await c.open('NAS');
    await c.page.getByText('No NAS yet').waitFor();
    const form = c.page.getByRole('form', { name: 'Add a NAS' });
    await form.getByLabel('Name', { exact: true }).fill('filer');
    await form.getByLabel('Type').selectOption('local');
    await form.getByLabel(/^Host/).fill('not a host!');
    await form.getByRole('button', { name: 'Add NAS' }).click();
    await expect.poll(() => form.locator('#nas-host-error').textContent()).toMatch(/^host must be a host name/);
    expect(await form.getByLabel(/^Host/).getAttribute('aria-invalid')).toBe('true');

    await form.getByLabel(/^Host/).fill('localhost');
    await form.getByRole('button', { name: 'Add NAS' }).click();
    const table = c.page.getByRole('table', { name: 'NAS' });
    await row(table, 'filer').waitFor();
    expect(await row(table, 'filer').getByRole('cell').allTextContents()).toEqual(expect.arrayContaining(['filer', 'localhost', 'Local directory']));
    await c.page.getByRole('status').filter({ hasText: 'NAS filer added' }).getByRole('link', { name: 'add its shares' }).waitFor();
    expect(await form.locator('#nas-host-error').count()).toBe(0);

    // Edit: the form takes the NAS's values, and a save changes the row.
    await c.page.getByRole('button', { name: 'Edit NAS filer' }).click();
    const edit = c.page.getByRole('form', { name: 'Edit NAS filer' });
    // The screen moves the focus to the form's first field a frame later: typing waits for it.
    await focused(edit.getByLabel('Name', { exact: true }));
    expect(await edit.getByLabel(/^Host/).inputValue()).toBe('localhost');
    await edit.getByLabel('Comment (optional)').fill('this computer');
    await edit.getByRole('button', { name: 'Save NAS' }).click();
    await row(table, 'filer').getByRole('cell', { name: 'this computer' }).waitFor();
    expect(await c.capture('nas')).toEqual([]);
  });

  it('creates a share after a mount options error, then fixes it', async () => {
    await c.open('Shares');
    await c.page.getByText('No shares yet').waitFor();
    const form = c.page.getByRole('form', { name: 'New share' });
    expect(await form.getByLabel('NAS').inputValue()).not.toBe('');
    await form.getByLabel('Share name').fill('projects');
    await form.getByLabel(/^Path/).fill('projects');
    await form.getByLabel('Mount options (optional)').fill('ro, vers=3');
    await form.getByRole('button', { name: 'Create share' }).click();
    await expect.poll(() => form.locator('#share-options-error').textContent()).toContain('comma-separated');
    expect(await form.getByLabel('Mount options (optional)').getAttribute('aria-invalid')).toBe('true');
    // What was typed stays, so only the wrong field needs fixing.
    expect(await form.getByLabel('Share name').inputValue()).toBe('projects');

    await form.getByLabel('Mount options (optional)').fill('ro');
    await form.getByRole('button', { name: 'Create share' }).click();
    await row(sharesTable(), 'projects').waitFor();
    expect(await form.locator('#share-options-error').count()).toBe(0);
    // Never tested nor scanned: its health is unknown, and it has no counts yet (not "0 files").
    expect(await row(sharesTable(), 'projects').getByRole('cell').allTextContents()).toEqual(
      expect.arrayContaining(['projects', 'filer', '–not scanned', 'Unknown', 'not scanned']),
    );
  });

  it('tests the share: the progress bar, fed by jobs.progress, reaches completed with every step ok', async () => {
    // Every state the bar goes through, recorded in the page as it changes.
    // (A string: this package's tests compile without the DOM library.)
    await c.page.evaluate(`(() => {
      const seen = (globalThis.seenProgress = []);
      new MutationObserver(() => {
        const bar = document.querySelector('progress[aria-label="Test of projects on filer"]');
        const panel = bar?.closest('.job-panel');
        if (!bar || !panel) return;
        const state = panel.dataset.status + ' ' + bar.value + '/' + bar.max;
        if (seen.at(-1) !== state) seen.push(state);
      }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    })()`);
    await c.page.getByRole('button', { name: 'Test projects on filer' }).click();
    const bar = c.page.getByRole('progressbar', { name: 'Test of projects on filer' });
    await c.page.locator('.job-panel[data-status="completed"]').waitFor();
    expect(await bar.evaluate((element) => [(element as unknown as Meter).value, (element as unknown as Meter).max])).toEqual([2, 2]);
    const seen = await c.page.evaluate(() => (globalThis as unknown as { seenProgress: string[] }).seenProgress);
    expect(seen.at(-1)).toBe('completed 2/2');
    // Only forward: starting (no job yet), queued, working, completed, never a step back.
    expect(seen.filter((state) => !/^(starting|queued|working|completed) \d\/\d$/.test(state))).toEqual([]);
    const values = seen.map((state) => Number(state.split(' ')[1]!.split('/')[0]));
    expect(values).toEqual([...values].sort((a, b) => a - b));

    const steps = c.page.getByRole('list', { name: 'Steps of the test of projects on filer' }).getByRole('listitem');
    expect(await steps.count()).toBe(2);
    expect(await steps.nth(0).textContent()).toMatch(/^Open path ok/);
    expect(await steps.nth(1).textContent()).toMatch(/^List entries ok/);
    expect(await c.page.locator('.job-panel .job-message').first().textContent()).toMatch(
      /^opened '.*projects', 2 entries listed \(host path: \/.*projects\)$/,
    );
  });

  it('shows a failed test with its message and the step that failed', async () => {
    // Saved before its directory exists (the core leaves that to the test), so the test fails at open_path.
    missingId = (await caller.shares.create({ nas: 'filer', body: { name: 'missing', path: 'no/such/dir' } })).id;
    await c.open('Overview');
    await c.open('Shares');
    await c.page.getByRole('button', { name: 'Test missing on filer' }).click();
    const alert = c.page.getByRole('alert').filter({ hasText: "path 'no/such/dir' not found on share" });
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/^Failed: path 'no\/such\/dir' not found on share \(host path: \/.+\/no\/such\/dir\)$/);
    const steps = c.page.getByRole('list', { name: 'Steps of the test of missing on filer' }).getByRole('listitem');
    expect(await steps.count()).toBe(2);
    expect(await steps.nth(0).textContent()).toMatch(
      /^Open path failed \(\d+ ms\) – path 'no\/such\/dir' not found on share \(host path: \/.+\/no\/such\/dir\)$/,
    );
    expect(await steps.nth(0).getAttribute('data-outcome')).toBe('failed');
    expect(await steps.nth(1).textContent()).toMatch(/^List entries skipped/);
    // A failed test stops its bar where it failed: one step of two.
    expect(await c.page.getByRole('progressbar', { name: 'Test of missing on filer' }).evaluate((element) => (element as unknown as Meter).value)).toBe(1);
  });

  it('scans the share, then shows its file count and size in words', async () => {
    await c.page.getByRole('button', { name: 'Scan projects on filer' }).click();
    const panel = c.page.locator('.job-panel[data-kind="share_scan"]');
    await panel.and(c.page.locator('[data-status="completed"]')).waitFor();
    expect(await panel.getByRole('status').textContent()).toBe('Scan of projects on filer: completed · 2 files, 8 bytes');
    expect(await panel.getByRole('progressbar').evaluate((element) => (element as unknown as Meter).value === (element as unknown as Meter).max)).toBe(true);
    // The list reloads when the scan ends: the row shows the share's new counts.
    const projects = row(sharesTable(), 'projects');
    await projects.getByRole('cell', { name: '8 bytes', exact: true }).waitFor();
    expect(await projects.getByRole('cell').nth(5).textContent()).toBe('2');
    expect(await c.capture('shares')).toEqual([]);
  });

  it('shows on the NAS table each NAS’s shares count, their health and the space they lie on', async () => {
    await c.open('NAS');
    const table = c.page.getByRole('table', { name: 'NAS' });
    const filer = row(table, 'filer');
    const filerId = (await caller.nas.show({ nas: 'filer' })).id;
    await filer.getByRole('link', { name: '2 shares' }).waitFor();
    expect(await filer.getByRole('link', { name: '2 shares' }).getAttribute('href')).toBe(`#/shares?nas_id=${filerId}`);
    const cells = (await filer.getByRole('cell').allTextContents()).map((text) => text.trim());
    expect(cells[6]).toBe('1 OK, 1 Unreachable');
    await expect.poll(async () => (await filer.getByRole('cell').nth(7).textContent())?.trim()).toMatch(/^\d+(\.\d+)? % used, .+ free of .+$/);
    expect(await c.capture('nas-shares-health-capacity')).toEqual([]);
    await c.open('Shares');
  });

  it('edits a share, keeping its NAS', async () => {
    await c.page.getByRole('button', { name: 'Edit projects on filer' }).click();
    const form = c.page.getByRole('form', { name: 'Edit share projects on filer' });
    await focused(form.getByLabel('Share name'));
    expect(await form.getByLabel('Mount options (optional)').inputValue()).toBe('ro');
    await form.getByLabel('Mount options (optional)').fill('ro,noexec');
    await form.getByRole('button', { name: 'Save share' }).click();
    await c.page.getByRole('status').filter({ hasText: 'Share projects on filer saved.' }).waitFor();
    expect(await caller.shares.show({ share: 'projects', scope: { nas: 'filer' } })).toMatchObject({ options: 'ro,noexec' });
    await c.page.getByRole('form', { name: 'New share' }).waitFor();
  });

  it('filters by name and NAS, sorts by clicking a header, and pages with Previous and Next', async () => {
    await caller.nas.create({ name: 'archive', host: 'localhost', type: 'local' });
    for (let i = 1; i <= 12; i++) await caller.shares.create({ nas: 'archive', body: { name: `vol-${String(i).padStart(2, '0')}`, path: 'projects' } });
    await c.open('NAS');
    await c.open('Shares');
    const table = sharesTable();
    const pager = c.page.getByRole('navigation', { name: 'Shares pages' });
    await pager.getByText('Page 1 of 2').waitFor();
    expect(await c.page.locator('.storage-count').textContent()).toBe('14 shares');
    expect(await firstCells(table)).toEqual(['missing', 'projects', 'vol-01', 'vol-02', 'vol-03', 'vol-04', 'vol-05', 'vol-06', 'vol-07', 'vol-08']);
    expect(await pager.getByRole('button', { name: 'Previous' }).isDisabled()).toBe(true);

    await pager.getByRole('button', { name: 'Next' }).click();
    await pager.getByText('Page 2 of 2').waitFor();
    await expect.poll(() => firstCells(table)).toEqual(['vol-09', 'vol-10', 'vol-11', 'vol-12']);
    expect(await pager.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);
    await pager.getByRole('button', { name: 'Previous' }).click();
    await pager.getByText('Page 1 of 2').waitFor();

    // Sorting: the clicked header carries aria-sort, and a second click reverses the order.
    const nameHeader = table.getByRole('columnheader', { name: /^Name/ });
    expect(await nameHeader.getAttribute('aria-sort')).toBe('ascending');
    await nameHeader.getByRole('button').click();
    await expect.poll(() => nameHeader.getAttribute('aria-sort')).toBe('descending');
    await expect.poll(async () => (await firstCells(table))[0]).toBe('vol-12');
    const sizeHeader = table.getByRole('columnheader', { name: /^Size/ });
    await sizeHeader.getByRole('button').click();
    await expect.poll(() => sizeHeader.getAttribute('aria-sort')).toBe('ascending');
    expect(await nameHeader.getAttribute('aria-sort')).toBeNull();
    await sizeHeader.getByRole('button').click();
    await expect.poll(async () => (await firstCells(table))[0]).toBe('projects');

    // Filtering: by a part of the name, then by NAS; a filter starts again at page 1.
    const filter = c.page.getByRole('search', { name: 'Filter shares' });
    await filter.getByLabel('Name contains').fill('vol-1');
    await expect.poll(async () => (await firstCells(table)).sort()).toEqual(['vol-10', 'vol-11', 'vol-12']);
    expect(await c.page.locator('.storage-count').textContent()).toBe('3 shares match the filter');
    await pager.getByText('Page 1 of 1').waitFor();
    await filter.getByLabel('Name contains').fill('');
    await filter.getByLabel('NAS').selectOption({ label: 'filer' });
    await expect.poll(async () => (await firstCells(table)).sort()).toEqual(['missing', 'projects']);
    await filter.getByLabel('Name contains').fill('nothing like it');
    await c.page.getByText('No share matches the filter').waitFor();
    await filter.getByRole('button', { name: 'Clear filter' }).click();
    await pager.getByText('Page 1 of 2').waitFor();
    expect(await filter.getByLabel('Name contains').inputValue()).toBe('');
  });

  it('puts shares in a pool, and shows the conflict when a share is in another pool', async () => {
    await c.open('Pools');
    await c.page.getByText('No pools yet').waitFor();
    const form = c.page.getByRole('form', { name: 'Add a pool' });
    for (const name of ['hot', 'cold']) {
      await form.getByLabel('Name', { exact: true }).fill(name);
      await form.getByRole('button', { name: 'Add pool' }).click();
      await row(c.page.getByRole('table', { name: 'Pools' }), name).waitFor();
    }

    await c.page.getByRole('button', { name: 'Choose the shares of pool hot' }).click();
    const hot = c.page.getByRole('group', { name: /^Shares of pool hot/ });
    await hot.getByRole('checkbox', { name: /^projects on filer/ }).check();
    await c.page.getByRole('button', { name: 'Save shares' }).click();
    await c.page.getByRole('status').filter({ hasText: 'Saved: pool hot holds 1 share.' }).waitFor();
    await row(c.page.getByRole('table', { name: 'Pools' }), 'hot')
      .getByRole('cell', { name: '1', exact: true })
      .waitFor();

    await c.page.getByRole('button', { name: 'Choose the shares of pool cold' }).click();
    const cold = c.page.getByRole('group', { name: /^Shares of pool cold/ });
    const projects = cold.getByRole('checkbox', { name: /^projects on filer · in pool hot$/ });
    await projects.check();
    await c.page.getByRole('button', { name: 'Save shares' }).click();
    const share = await caller.shares.show({ share: 'projects', scope: { nas: 'filer' } });
    const conflict = c.page.getByRole('alert').filter({ hasText: `nas_share_ids ${share.id} already belong to another pool` });
    await conflict.waitFor();
    expect(await conflict.textContent()).toBe(
      `nas_share_ids ${share.id} already belong to another pool. projects (#${share.id}) is in pool hot: take it out of that pool first.`,
    );
    expect((await caller.pools.show({ pool: 'cold' })).nas_share_ids).toEqual([]);
    expect(await c.capture('pools')).toEqual([]);

    // The Shares screen shows the pool each share is in.
    await c.open('Shares');
    await row(sharesTable(), 'projects').getByRole('cell', { name: 'hot', exact: true }).waitFor();
  });

  it('deletes behind a confirmation, and says why when the core refuses', async () => {
    await c.page.getByRole('button', { name: 'Delete missing on filer' }).click();
    const dialog = c.page.getByRole('dialog', { name: 'Delete missing on filer' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await row(sharesTable(), 'missing').count()).toBe(1);
    await c.page.getByRole('button', { name: 'Delete missing on filer' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await c.page.getByRole('status').filter({ hasText: 'Share missing on filer deleted.' }).waitFor();
    await expect.poll(() => row(sharesTable(), 'missing').count()).toBe(0);

    await c.open('NAS');
    await c.page.getByRole('button', { name: 'Delete NAS archive' }).click();
    const refused = c.page.getByRole('dialog', { name: 'Delete NAS archive' });
    await refused.getByRole('button', { name: 'Delete' }).click();
    await refused.getByRole('alert').waitFor();
    expect(await refused.getByRole('alert').textContent()).toMatch(/share/);
    await refused.getByRole('button', { name: 'Cancel' }).click();
    expect(await row(c.page.getByRole('table', { name: 'NAS' }), 'archive').count()).toBe(1);

    await c.open('Pools');
    await c.page.getByRole('button', { name: 'Delete pool cold' }).click();
    await c.page.getByRole('dialog', { name: 'Delete pool cold' }).getByRole('button', { name: 'Delete' }).click();
    await c.page.getByRole('status').filter({ hasText: 'Pool cold deleted.' }).waitFor();
    await expect.poll(() => row(c.page.getByRole('table', { name: 'Pools' }), 'cold').count()).toBe(0);
  });

  it('shows a test the allowed hosts refuse as not started, with the reason and a Close (issue 22)', async () => {
    await caller.nas.create({ name: 'remote', host: '192.0.2.10', type: 'nfs_v4' });
    const remote = await caller.shares.create({ nas: 'remote', body: { name: 'export', path: '/export' } });
    await caller.settings.update({ share_test_allowed_hosts: ['127.0.0.1'] });
    await c.open('NAS');
    await c.open('Shares');
    await c.page.getByRole('button', { name: 'Test export on remote' }).click();
    const panel = c.page.locator('.job-panel').filter({ has: c.page.getByRole('progressbar', { name: 'Test of export on remote' }) });
    const alert = panel.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe(
      'Not started: host 192.0.2.10 is not among the share_test_allowed_hosts of this server; an admin can add it in the settings',
    );
    expect(await panel.getByRole('status').textContent()).toBe('Test of export on remote: not started');
    expect(await panel.getAttribute('data-status')).toBe('refused');
    // The bar stands still (a value), rather than moving as a job that is starting.
    expect(await panel.getByRole('progressbar').evaluate((element) => (element as unknown as Meter).value)).toBe(0);
    expect(await c.page.getByRole('button', { name: 'Test export on remote' }).isDisabled()).toBe(false);
    await panel.getByRole('button', { name: 'Close Test of export on remote' }).click();
    await expect.poll(() => panel.count()).toBe(0);

    await caller.settings.update({ share_test_allowed_hosts: [] });
    await caller.shares.delete({ share: remote.id });
    await caller.nas.delete({ nas: 'remote' });
  });

  it("shows the user's own recent jobs by share name on the overview", async () => {
    await c.open('Overview');
    const jobs = c.page.getByRole('table', { name: 'Your recent jobs' });
    await jobs.waitFor();
    const shareCells = (await jobs.locator('tbody > tr > td:nth-child(2)').allTextContents()).map((text) => text.trim());
    // Newest first: the scan, the failed test of the share deleted since, the first test.
    expect(shareCells).toEqual(['projects on filer', `deleted share #${missingId}`, 'projects on filer']);
    expect(await c.page.getByRole('list', { name: 'Counts' }).textContent()).toContain('2 NAS');
    expect(await c.capture('overview-with-data')).toEqual([]);
    expect(c.cspViolations).toEqual([]);
  });
});
