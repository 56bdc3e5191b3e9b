import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import type { AppCaller } from '../../src/main/router/index.js';
import { adminPassword } from '../test-desktop.js';
import { chromiumMissing, openConsole, type ConsoleHarness } from './harness.js';
import { tabTo } from './keyboard.js';

const skipReason = chromiumMissing('the shares bulk actions e2e test');

/** 30 shares vol-01..vol-30 and 3 misc-1..3 on a local NAS, a pool `hot`, and a per-user bound of 5 unfinished jobs. */
describe.skipIf(skipReason !== undefined)('shares screen: bulk actions in headless Chromium', () => {
  let c: ConsoleHarness;
  let caller: AppCaller;
  beforeAll(async () => {
    c = await openConsole();
    caller = c.desktop.caller();
    await caller.auth.signIn({ username: 'admin', password: adminPassword });
    await caller.nas.create({ name: 'filer', host: 'localhost', type: 'local' });
    for (let i = 1; i <= 30; i++) await caller.shares.create({ nas: 'filer', body: { name: `vol-${String(i).padStart(2, '0')}`, path: 'projects' } });
    for (let i = 1; i <= 3; i++) await caller.shares.create({ nas: 'filer', body: { name: `misc-${i}`, path: 'projects' } });
    await caller.pools.create({ name: 'hot' });
    await caller.settings.update({ job_queue_max_per_principal: 5 });
    await c.signIn();
    await c.open('Shares');
  }, 120_000);
  afterAll(async () => {
    await c?.close();
  });

  const bar = () => c.page.getByRole('region', { name: 'Selected shares' });
  const table = () => c.page.getByRole('table', { name: 'Shares' });
  const pager = () => c.page.getByRole('navigation', { name: 'Shares pages' });
  const checked = (box: Locator) => box.evaluate((element) => (element as unknown as { checked: boolean }).checked);

  it('filters, ticks the page, selects all 30 matching and scans them with the keyboard alone, then sums up what was accepted and refused', async () => {
    await c.page.locator('.storage-count').filter({ hasText: '33 shares' }).waitFor();
    // From here on, no mouse: Tab, typing, Space and Enter.
    await tabTo(c.page, 'Name contains');
    await c.page.keyboard.type('vol-');
    await c.page.locator('.storage-count').filter({ hasText: '30 shares match the filter' }).waitFor();
    await tabTo(c.page, 'Select every share on this page');
    await c.page.keyboard.press('Space');
    await bar().getByText('10 selected shares').waitFor();
    await tabTo(c.page, 'Select all 30 matching shares', { backward: true });
    await c.page.keyboard.press('Enter');
    await bar().getByText('All 30 matching shares selected').waitFor();
    await tabTo(c.page, 'Scan 30 selected shares');
    await c.page.keyboard.press('Enter');

    const summary = bar().getByRole('status');
    await summary.getByText(/^Scan: \d+ accepted, \d+ refused$/).waitFor();
    const [, accepted, refused] = /^Scan: (\d+) accepted, (\d+) refused$/.exec((await summary.locator('strong').textContent()) ?? '')!;
    expect(Number(accepted) + Number(refused)).toBe(30);
    // Each share's scan is bounded on its own: at least the bound's 5 go through, the rest are refused with the bound named.
    expect(Number(accepted)).toBeGreaterThanOrEqual(5);
    expect(Number(refused)).toBeGreaterThan(0);
    const reasons = await summary.getByRole('list', { name: 'Refused, by reason' }).getByRole('listitem').allTextContents();
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toMatch(
      new RegExp(`^${refused} shares? refused \\(429, your own bound of unfinished jobs\\): too many unfinished jobs for this credential \\(at most 5\\)`),
    );
    const scans = await caller.jobs.list({ kind: 'share_scan' });
    expect(scans.count).toBe(Number(accepted));
    expect(await c.capture('shares-bulk-scan')).toEqual([]);
  });

  it('keeps "all matching" across pages, takes an untick, and deletes after a confirmation naming the count', async () => {
    await pager().getByRole('button', { name: 'Next' }).click();
    await pager().getByText('Page 2 of 3').waitFor();
    const boxes = table().getByRole('checkbox', { name: /^Select vol-/ });
    expect(await boxes.count()).toBe(10);
    for (const box of await boxes.all()) expect(await checked(box)).toBe(true);
    await table().getByRole('checkbox', { name: 'Select vol-15 on filer' }).uncheck();
    await bar().getByText('29 selected shares (all matching but 1)').waitFor();

    await bar().getByRole('button', { name: 'Delete 29 selected shares' }).click();
    const dialog = c.page.getByRole('dialog', { name: 'Delete 29 selected shares' });
    await dialog.getByText('Delete 29 shares? This cannot be undone; their finished jobs stay in the overview.').waitFor();
    expect(await c.capture('shares-bulk-delete-confirm')).toEqual([]);
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await bar().getByRole('status').getByText('Delete: 29 accepted, 0 refused').waitFor();
    await c.page.locator('.storage-count').filter({ hasText: '1 share matches the filter' }).waitFor();
    expect((await caller.shares.list({ query: { name: '~vol-%' } })).nas_shares.map((share) => share.name)).toEqual(['vol-15']);
    await bar().getByText('No share selected').waitFor();
  });

  it('puts the ticked shares into a chosen pool, adding them to its members', async () => {
    const misc = await caller.shares.show({ share: 'misc-1', scope: { nas: 'filer' } });
    await caller.pools.update({ pool: 'hot', body: { nas_share_ids: [misc.id] } });
    const filter = c.page.getByRole('search', { name: 'Filter shares' });
    await filter.getByLabel('Name contains').fill('misc');
    await c.page.locator('.storage-count').filter({ hasText: '3 shares match the filter' }).waitFor();
    for (const name of ['misc-1', 'misc-2', 'misc-3'])
      await table()
        .getByRole('checkbox', { name: `Select ${name} on filer` })
        .check();
    // A page fully ticked that holds every match offers no "all matching": there is nothing more.
    expect(
      await bar()
        .getByRole('button', { name: /^Select all/ })
        .count(),
    ).toBe(0);
    expect(await bar().getByRole('button', { name: 'Put into pool (choose a pool first)' }).isDisabled()).toBe(true);
    await bar().getByLabel('Pool', { exact: true }).selectOption({ label: 'hot' });
    await bar().getByRole('button', { name: 'Put into pool hot: 3 selected shares' }).click();
    await bar().getByRole('status').getByText('Pool hot: 2 shares added, 1 already in it').waitFor();
    await expect.poll(async () => table().getByRole('cell', { name: 'hot', exact: true }).count()).toBe(3);
    expect((await caller.pools.show({ pool: 'hot' })).nas_share_ids).toHaveLength(3);
    expect(await c.capture('shares-bulk-pool')).toEqual([]);
  });
});
