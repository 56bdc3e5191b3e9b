import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppCaller } from '../../src/main/router/index.js';
import { adminPassword } from '../test-desktop.js';
import { chromiumMissing, openConsole, type ConsoleHarness } from './harness.js';
import { silentServer, type SilentServer } from './silent-server.js';

const skipReason = chromiumMissing('the shares bulk follow e2e test');

/** Two NFS shares on a server that holds their tests until released, and one local share never scanned. */
describe.skipIf(skipReason !== undefined)('shares screen: rows follow the jobs a bulk action queued, in headless Chromium', () => {
  let c: ConsoleHarness;
  let caller: AppCaller;
  let nfs: SilentServer;
  beforeAll(async () => {
    c = await openConsole();
    nfs = await silentServer();
    caller = c.desktop.caller();
    await caller.auth.signIn({ username: 'admin', password: adminPassword });
    await caller.nas.create({ name: 'nfs-box', host: '127.0.0.1', type: 'nfs_v4' });
    await caller.nas.create({ name: 'filer', host: 'localhost', type: 'local' });
    for (const name of ['export-a', 'export-b']) await caller.shares.create({ nas: 'nfs-box', body: { name, path: `/${name}`, options: `port=${nfs.port}` } });
    await caller.shares.create({ nas: 'filer', body: { name: 'projects', path: 'projects' } });
    await c.signIn();
    await c.open('Shares');
  }, 120_000);
  afterAll(async () => {
    await nfs?.close();
    await c?.close();
  });

  const table = () => c.page.getByRole('table', { name: 'Shares' });
  const row = (name: string) =>
    table()
      .getByRole('row')
      .filter({ has: c.page.getByRole('cell', { name, exact: true }) });
  const bar = () => c.page.getByRole('region', { name: 'Selected shares' });

  it('moves each row of a bulk Test to its outcome when its job ends, without leaving the screen', async () => {
    for (const name of ['export-a', 'export-b'])
      await table()
        .getByRole('checkbox', { name: `Select ${name} on nfs-box` })
        .check();
    await bar().getByRole('button', { name: 'Test 2 selected shares' }).click();
    await bar().getByRole('status').getByText('Test: 2 accepted, 0 refused').waitFor();
    // Held at the server: the rows still read Unknown, each with its job's live panel.
    await c.page.getByRole('progressbar', { name: 'Test of export-a on nfs-box' }).waitFor();
    expect(await row('export-a').locator('.health').textContent()).toBe('Unknown');
    expect(await c.capture('shares-bulk-follow-running')).toEqual([]);

    nfs.release();
    for (const name of ['export-a', 'export-b']) await row(name).locator('.health', { hasText: 'Unreachable' }).waitFor();
    await c.page.getByRole('status').filter({ hasText: 'Test of export-b on nfs-box: failed' }).waitFor();
    expect(await c.capture('shares-bulk-follow-done')).toEqual([]);
  });

  it('fills in a row of a bulk Scan when its scan ends', async () => {
    await bar().getByRole('button', { name: 'Clear selection' }).click();
    expect(await row('projects').getByText('not scanned').count()).toBeGreaterThan(0);
    await table().getByRole('checkbox', { name: 'Select projects on filer' }).check();
    await bar().getByRole('button', { name: 'Scan 1 selected share' }).click();
    await c.page.getByRole('status').filter({ hasText: 'Scan of projects on filer: completed' }).waitFor();
    await expect.poll(() => row('projects').getByText('not scanned').count()).toBe(0);
    expect(await row('projects').getByRole('cell', { name: '2', exact: true }).count()).toBe(1);
  });
});
