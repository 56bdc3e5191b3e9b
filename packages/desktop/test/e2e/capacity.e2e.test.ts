import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import type { ActiveJobStatus, Job } from '@dms/core';
import { openSqliteStorage } from '@dms/core/sqlite';
import type { AppCaller } from '../../src/main/router/index.js';
import { adminPassword } from '../test-desktop.js';
import { chromiumMissing, openConsole, type ConsoleHarness } from './harness.js';

const skipReason = chromiumMissing('the capacity e2e test');
const dayMs = 86_400_000;

/**
 * Issue 42's console (docs/decisions/143-console-capacity.md): each share's capacity bar,
 * coloured at the thresholds that apply to it, with "full in N days" once the forecast knows;
 * the dashboard's space per NAS and pool. Three shares of one local file system: one at the
 * defaults (80/90 %), one whose own warning threshold is below its usage, one whose own critical
 * threshold is. Looked at through axe in light and dark, photographed into test-results/.
 */
describe.skipIf(skipReason !== undefined)('capacity in the console, in headless Chromium', () => {
  let c: ConsoleHarness;
  let admin: AppCaller;
  const ids: Record<string, number> = {};

  const finished = async (started: ActiveJobStatus): Promise<Job> => {
    let last: Job | undefined;
    for await (const job of await admin.jobs.follow({ jobId: started.job_id })) last = job;
    return last!;
  };
  const testShare = async (name: string) => expect((await finished(await admin.shares.test({ share: ids[name]! }))).status).toBe('completed');
  // By the name column: the path column repeats names here.
  const row = (table: Locator, name: string) => table.locator('tbody > tr').filter({ has: c.page.locator('td:nth-child(2)').getByText(name, { exact: true }) });
  const headedRow = (table: Locator, name: string) => table.getByRole('row').filter({ has: c.page.getByRole('rowheader', { name, exact: true }) });

  beforeAll(async () => {
    c = await openConsole();
    admin = c.desktop.caller();
    await admin.auth.signIn({ username: 'admin', password: adminPassword });
    await admin.nas.create({ name: 'filer', host: 'localhost', type: 'local' });
    ids['projects'] = (await admin.shares.create({ nas: 'filer', body: { name: 'projects', path: 'projects' } })).id;
    ids['archive'] = (await admin.shares.create({ nas: 'filer', body: { name: 'archive', path: 'projects/sub', capacity_warning_percent: 1 } })).id;
    ids['scratch'] = (
      await admin.shares.create({ nas: 'filer', body: { name: 'scratch', path: 'projects', capacity_warning_percent: 1, capacity_critical_percent: 2 } })
    ).id;
    ids['unread'] = (await admin.shares.create({ nas: 'filer', body: { name: 'unread', path: 'projects' } })).id;
    const pool = await admin.pools.create({ name: 'tier1', type: 'primary', content: 'nas' });
    await admin.pools.update({ pool: pool.id, body: { nas_share_ids: [ids['projects']!] } });
    for (const name of ['projects', 'archive', 'scratch']) await testShare(name);
    // A history for projects' forecast: three days of growth of 1 % of the size a day, read
    // before the real reading (written through a second connection, as a past would have been).
    const read = await admin.shares.show({ share: ids['projects']! });
    const size = read.capacity_bytes!;
    const free = read.free_bytes!;
    const storage = openSqliteStorage({ file: join(c.desktop.dms.dataDir, 'dms.sqlite') });
    try {
      for (const days of [3, 2, 1]) {
        const at = new Date(Date.now() - days * dayMs).toISOString();
        await storage.shares.recordTest(ids['projects']!, {
          status: 'completed',
          at,
          capacity: { capacity_bytes: size, free_bytes: free + Math.round(days * size * 0.01) },
        });
      }
    } finally {
      await storage.close();
    }
    await testShare('projects');
    await c.signIn();
  }, 120_000);
  afterAll(async () => {
    await c?.close();
  });

  it('issue 42 item 2: each share row shows a capacity bar coloured at its thresholds, free space in words and full in N days', async () => {
    await c.open('Shares');
    const table = c.page.getByRole('table', { name: 'Shares' });
    await row(table, 'projects').locator('.capacity').waitFor();
    expect(await table.getByRole('columnheader').allTextContents()).toContain('Capacity');
    const capacityOf = (name: string) => row(table, name).locator('td').nth(9);
    const projects = await admin.shares.show({ share: ids['projects']! });
    expect(projects.days_until_full).not.toBeNull();
    expect(await capacityOf('projects').locator('.capacity-text').textContent()).toMatch(/^\d+(\.\d)? % used, .+ free of .+$/);
    expect(await capacityOf('projects').locator('.capacity-full').textContent()).toMatch(/^full in \d+ days$/);
    // projects has the defaults: its colour follows this machine's usage at 80 and 90 %.
    const used = projects.used_percent!;
    expect(await capacityOf('projects').locator('.capacity').getAttribute('data-level')).toBe(used >= 90 ? 'critical' : used >= 80 ? 'warning' : 'ok');
    expect(await capacityOf('archive').locator('.capacity').getAttribute('data-level')).toBe('warning');
    expect(await capacityOf('scratch').locator('.capacity').getAttribute('data-level')).toBe('critical');
    // The colour is told in words to a screen reader; the bar itself is hidden from it.
    expect(await capacityOf('scratch').textContent()).toContain('past the critical threshold');
    expect(await capacityOf('scratch').locator('.capacity-track').getAttribute('aria-hidden')).toBe('true');
    expect(await capacityOf('unread').textContent()).toBe('not read yet');
    expect(await c.capture('capacity-shares')).toEqual([]);
    expect(c.cspViolations).toEqual([]);
  });

  it('issue 42 item 2: the dashboard shows size, free, used % and days until full per NAS and pool, a file system counted once', async () => {
    await c.open('Overview');
    const perNas = c.page.getByRole('table', { name: 'Space on each NAS' });
    await perNas.waitFor();
    expect(await perNas.getByRole('columnheader').allTextContents()).toEqual(['Name', 'Size', 'Free', 'Used', 'Full in', 'Shares']);
    const statistics = await admin.statistics.capacity({ days: 30 });
    const filer = statistics.nas[0]!;
    const cells = (await headedRow(perNas, 'filer').getByRole('cell').allTextContents()).map((text) => text.trim());
    expect(cells[2]).toBe(`${filer.used_percent!.toLocaleString('en')} %`);
    expect(cells[4]).toMatch(/^3 shares read(, [12] on a file system counted already)?$/);
    const tier1 = (
      await headedRow(c.page.getByRole('table', { name: 'Space in each pool' }), 'tier1')
        .getByRole('cell')
        .allTextContents()
    ).map((text) => text.trim());
    expect(tier1[3]).toMatch(/^full in \d+ days$/);
    expect(tier1[4]).toBe('1 share read');
    expect(await c.capture('capacity-dashboard')).toEqual([]);
    expect(c.cspViolations).toEqual([]);
  });

  it("issue 42 item 2: a share's chart shows used and size over time with the forecast line to the full date, and as a table", async () => {
    const section = c.page.getByRole('region', { name: 'Share space' });
    await section.getByLabel('Share').selectOption({ label: 'projects on filer' });
    const chart = section.getByRole('img', { name: 'Line chart: used space and size of projects on filer, with the forecast' });
    await chart.waitFor();
    const summary = section.locator('figcaption');
    await expect
      .poll(() => summary.textContent())
      .toMatch(/^projects on filer: .+ used of .+ free\) on .+, from \d+ readings\. Growing .+ a day: full in \d+ days \(.+\)\.$/);
    await section.scrollIntoViewIfNeeded();
    expect(await c.capture('capacity-share-chart')).toEqual([]);

    await section.getByRole('button', { name: 'Show space as table' }).click();
    const table = section.getByRole('table', { name: 'Capacity readings of projects on filer' });
    await table.waitFor();
    const rows = await table.locator('tbody > tr').all();
    // The three days of history, the two real readings, and the forecast's full date last.
    expect(rows.length).toBe(6);
    expect(await rows.at(-1)!.getByRole('rowheader').textContent()).toMatch(/\(forecast\)$/);
    expect(await c.capture('capacity-share-table')).toEqual([]);
    expect(c.cspViolations).toEqual([]);
  });
});
