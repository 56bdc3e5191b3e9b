import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import type { ActiveJobStatus } from '@dms/core';
import type { AppCaller } from '../../src/main/router/index.js';
import { adminPassword } from '../test-desktop.js';
import { chromiumMissing, openConsole, type ConsoleHarness } from './harness.js';
import { silentServer, type SilentServer } from './silent-server.js';

const skipReason = chromiumMissing('the Jobs and Audit screens e2e test');
const operatorPassword = 'an operator password, long enough';

describe.skipIf(skipReason !== undefined)('Jobs and Audit screens in headless Chromium', () => {
  let c: ConsoleHarness;
  let admin: AppCaller;
  let operator: AppCaller;
  let nfs: SilentServer;
  let projectsId = 0;

  /** Runs a job to its end through jobs.follow. */
  const finish = async (caller: AppCaller, started: ActiveJobStatus) => {
    for await (const job of await caller.jobs.follow({ jobId: started.job_id })) if (job.status === 'completed' || job.status === 'failed') return job;
    throw new Error(`job ${started.job_id} stopped being followed before it ended`);
  };

  beforeAll(async () => {
    c = await openConsole();
    nfs = await silentServer();
    admin = c.desktop.caller();
    await admin.auth.signIn({ username: 'admin', password: adminPassword });
    await admin.users.create({ username: 'operator', password: operatorPassword });
    operator = c.desktop.caller();
    await operator.auth.signIn({ username: 'operator', password: operatorPassword });
    await admin.nas.create({ name: 'filer', host: 'localhost', type: 'local' });
    await admin.nas.create({ name: 'nfs-box', host: '127.0.0.1', type: 'nfs_v4' });
    projectsId = (await admin.shares.create({ nas: 'filer', body: { name: 'projects', path: 'projects' } })).id;
    const missing = await admin.shares.create({ nas: 'filer', body: { name: 'missing', path: 'no/such/dir' } });
    await admin.shares.create({ nas: 'nfs-box', body: { name: 'export', path: '/export', options: `port=${nfs.port}` } });
    await finish(admin, await admin.shares.test({ share: projectsId }));
    await finish(admin, await admin.shares.scan({ share: projectsId }));
    await finish(operator, await operator.shares.test({ share: projectsId }));
    await finish(admin, await admin.shares.test({ share: missing.id }));
    await c.signIn();
  }, 120_000);
  afterAll(async () => {
    await nfs?.close();
    await c?.close();
  });

  const jobsTable = () => c.page.getByRole('table', { name: 'Jobs' });
  const rows = (table: Locator) => table.locator('tbody > tr.history-row');
  const cellsOf = async (row: Locator) => (await row.getByRole('cell').allTextContents()).map((text) => text.trim());

  it('lists every job with its kind, share, NAS, requester, status and progress, newest first', async () => {
    await c.open('Jobs');
    await expect.poll(() => rows(jobsTable()).count()).toBe(4);
    expect(await c.page.locator('.storage-count').textContent()).toBe('4 jobs');
    const cells = await Promise.all([0, 1, 2, 3].map((index) => cellsOf(rows(jobsTable()).nth(index))));
    expect(cells.map((row) => row.slice(0, 6))).toEqual([
      ['▸ Test', 'missing', 'filer', 'admin', 'failed', '1 of 2 steps'],
      ['▸ Test', 'projects', 'filer', 'operator', 'completed', '2 of 2 steps'],
      ['▸ Scan', 'projects', 'filer', 'admin', 'completed', '2 files, 8 bytes'],
      ['▸ Test', 'projects', 'filer', 'admin', 'completed', '2 of 2 steps'],
    ]);
    // Created and finished, as dates.
    expect(cells[0]![6]).toMatch(/\d{4}/);
    expect(cells[0]![7]).toMatch(/\d{4}/);
  });

  it('filters by status and kind, and pages', async () => {
    const filter = c.page.getByRole('search', { name: 'Filter jobs' });
    await filter.getByLabel('Status').selectOption({ label: 'failed' });
    await expect.poll(() => rows(jobsTable()).count()).toBe(1);
    expect(await c.page.locator('.storage-count').textContent()).toBe('1 job matches the filter');
    await filter.getByLabel('Status').selectOption({ label: 'completed' });
    await filter.getByLabel('Kind').selectOption({ label: 'Scan' });
    // The failed filter also showed one row (a test): wait for the scan, not for a count of one.
    await expect.poll(async () => (await cellsOf(rows(jobsTable()).first()))[0]).toBe('▸ Scan');
    expect(await rows(jobsTable()).count()).toBe(1);
    await filter.getByLabel('Status').selectOption({ label: 'running' });
    await c.page.getByText('No job matches the filter').waitFor();
    await filter.getByRole('button', { name: 'Clear filter' }).click();
    await expect.poll(() => rows(jobsTable()).count()).toBe(4);

    const pager = c.page.getByRole('navigation', { name: 'Jobs pages' });
    await pager.getByLabel('Per page').selectOption('10');
    for (let i = 0; i < 7; i++) await finish(operator, await operator.shares.test({ share: projectsId }));
    await c.page.getByRole('button', { name: 'Refresh' }).click();
    await pager.getByText('Page 1 of 2').waitFor();
    expect(await rows(jobsTable()).count()).toBe(10);
    await pager.getByRole('button', { name: 'Next' }).click();
    await pager.getByText('Page 2 of 2').waitFor();
    await expect.poll(() => rows(jobsTable()).count()).toBe(1);
    // The oldest job is last: the admin's first test.
    expect((await cellsOf(rows(jobsTable()).first())).slice(0, 4)).toEqual(['▸ Test', 'projects', 'filer', 'admin']);
    await pager.getByLabel('Per page').selectOption('25');
    await pager.getByText('Page 1 of 1').waitFor();
  });

  it('opens a job from the keyboard: its steps and message, and Enter again closes it', async () => {
    const toggle = c.page.getByRole('button', { name: /^Test of missing on filer, .*: details$/ });
    await toggle.focus();
    await c.page.keyboard.press('Enter');
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    const detail = c.page.getByRole('region', { name: 'Test of missing on filer' });
    await detail.waitFor();
    expect(await toggle.getAttribute('aria-controls')).toBe(await detail.getAttribute('id'));
    expect(await detail.locator('.job-message').textContent()).toMatch(/^Failed: path 'no\/such\/dir' not found on share \(host path: \/.+\/no\/such\/dir\)$/);
    const steps = detail.getByRole('list', { name: 'Steps of the test of missing on filer' }).getByRole('listitem');
    expect(await steps.count()).toBe(2);
    expect(await steps.nth(0).textContent()).toMatch(
      /^Open path failed \(\d+ ms\) – path 'no\/such\/dir' not found on share \(host path: \/.+\/no\/such\/dir\)$/,
    );
    expect(await detail.locator('dl').textContent()).toContain('Requested byadmin');
    await c.page.keyboard.press('Enter');
    await expect.poll(() => detail.count()).toBe(0);
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    // A click anywhere on the row opens it too.
    await rows(jobsTable()).filter({ hasText: 'missing' }).getByRole('cell', { name: 'missing', exact: true }).click();
    await detail.waitFor();
  });

  it('follows a running job live: its row and detail move to failed without a reload', async () => {
    const started = await operator.shares.test({ share: 'export', scope: { nas: 'nfs-box' } });
    // Waiting at negotiate_protocol: resolved and connected, two steps of four.
    for await (const job of await operator.jobs.follow({ jobId: started.job_id })) if (job.progress >= 2) break;
    await c.page.getByRole('button', { name: 'Refresh' }).click();
    const running = rows(jobsTable()).filter({ hasText: 'export' });
    await running.getByRole('cell', { name: 'running' }).waitFor();
    const bar = running.getByRole('progressbar', { name: 'Progress of the test of export on nfs-box' });
    expect(await bar.evaluate((element) => [(element as unknown as { value: number }).value, (element as unknown as { max: number }).max])).toEqual([2, 4]);
    expect(await c.capture('jobs')).toEqual([]);

    await running.getByRole('button', { name: /details$/ }).click();
    const detail = c.page.getByRole('region', { name: 'Test of export on nfs-box' });
    const steps = detail.getByRole('list', { name: 'Steps of the test of export on nfs-box' }).getByRole('listitem');
    await expect.poll(() => steps.count()).toBe(2);
    expect(await detail.locator('dl').textContent()).toContain('Finishednot yet');

    nfs.release();
    await running.getByRole('cell', { name: 'failed' }).waitFor();
    expect(await running.getByRole('progressbar').count()).toBe(0);
    await expect.poll(() => steps.count()).toBe(4);
    expect(await steps.nth(2).textContent()).toMatch(/^Negotiate protocol failed/);
    expect(await detail.locator('.job-message').textContent()).toMatch(/^Failed: /);
    expect(c.cspViolations).toEqual([]);
  });

  it('shows the audit log to an admin: console changes by their user, a change field by field, a secret as changed', async () => {
    await admin.shares.update({ share: projectsId, body: { options: 'ro', username: 'svc', password: 'share secret 1' } });
    await c.open('Audit log');
    const table = c.page.getByRole('table', { name: 'Audit events' });
    await table.waitFor();
    const filter = c.page.getByRole('search', { name: 'Filter the audit log' });
    await filter.getByLabel('Action').selectOption({ label: 'Updated' });
    await filter.getByLabel('Resource').selectOption({ label: 'Share' });
    await expect.poll(() => rows(table).count()).toBe(1);
    const update = rows(table).first();
    expect((await cellsOf(update)).slice(1)).toEqual(['admin', 'Console', 'Updated', 'Share projects', 'success']);

    await update.getByRole('button', { name: /^Updated Share projects by admin, .*: details$/ }).press('Enter');
    const changes = c.page.getByRole('table', { name: /^Changes: Updated Share projects by admin/ });
    await changes.waitFor();
    const changeRows = await changes
      .locator('tbody > tr')
      .evaluateAll((trs) =>
        trs.map((tr) => Array.from((tr as unknown as { children: ArrayLike<{ textContent: string | null }> }).children, (cell) => cell.textContent?.trim())),
      );
    // In the order the core recorded them.
    expect(changeRows).toHaveLength(3);
    expect(changeRows).toEqual(
      expect.arrayContaining([
        ['options', '(none)', 'ro'],
        ['username', '(none)', 'svc'],
        ['password', 'changed (a secret: its values are never recorded)'],
      ]),
    );
    expect(await c.page.getByRole('main').textContent()).not.toContain('share secret 1');
    expect(
      await c.page
        .getByRole('region', { name: /^Updated Share projects by admin/ })
        .locator('dl')
        .textContent(),
    ).toContain('Client addressdesktop-ipc');
    // The whole log, the update still open in it.
    await filter.getByRole('button', { name: 'Clear filter' }).click();
    await expect.poll(() => rows(table).count()).toBeGreaterThan(10);
    await changes.waitFor();
    expect(await c.capture('audit')).toEqual([]);
  });

  it('lists a share test as started, with the job’s outcome beside it, and offers only the resource types the log holds', async () => {
    const table = c.page.getByRole('table', { name: 'Audit events' });
    const filter = c.page.getByRole('search', { name: 'Filter the audit log' });
    await filter.getByLabel('Action').selectOption({ label: 'Started a test' });
    await filter.getByLabel('Resource').selectOption({ label: 'Share' });
    // The filtered list may show the unfiltered rows for a moment: wait for the one row it keeps.
    const missing = rows(table).filter({ hasText: 'Share missing' });
    await expect.poll(() => missing.count()).toBe(1);
    // The request succeeded; the test itself failed, and the row says both.
    expect((await cellsOf(missing)).slice(1)).toEqual(['admin', 'Console', 'Started a test Test failed', 'Share missing', 'success']);
    const projects = rows(table).filter({ hasText: 'Share projects' });
    expect(await projects.first().getByRole('link', { name: 'Test completed' }).count()).toBe(1);
    expect(await c.capture('audit-test-outcome')).toEqual([]);

    // The Resource filter: the types with events (no Schedule yet), then a schedule's too once one is made.
    const resourceChoices = async () => (await filter.getByLabel('Resource').locator('option').allTextContents()).slice(1).sort();
    expect(await resourceChoices()).toEqual(['NAS', 'Share', 'User']);
    await admin.schedules.create({ name: 'nightly', action: 'scan', rrule: 'DTSTART:20301125T120000Z\nRRULE:FREQ=DAILY', nas_share_ids: [projectsId] });
    await c.page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(resourceChoices).toEqual(['NAS', 'Schedule', 'Share', 'User']);

    await missing.getByRole('link', { name: 'Test failed' }).click();
    await c.page.getByRole('heading', { level: 1, name: 'Jobs' }).waitFor();
    await c.page.getByText('Showing the job you opened.').waitFor();
    expect((await cellsOf(rows(c.page.getByRole('table', { name: 'Jobs' })).first())).slice(0, 2)).toEqual(['▾ Test', 'missing']);
    await c.open('Audit log');
  });

  it('filters the audit log by actor, via and time, and counts repeated failed sign-ins', async () => {
    await c.desktop
      .caller()
      .auth.signIn({ username: 'operator', password: 'wrong password' })
      .catch(() => undefined);
    await c.desktop
      .caller()
      .auth.signIn({ username: 'operator', password: 'wrong again' })
      .catch(() => undefined);
    const table = c.page.getByRole('table', { name: 'Audit events' });
    const filter = c.page.getByRole('search', { name: 'Filter the audit log' });
    await filter.getByLabel('Actor contains').fill('operat');
    await filter.getByLabel('Action').selectOption({ label: 'Sign-in failed' });
    await expect.poll(() => rows(table).count()).toBe(1);
    expect((await cellsOf(rows(table).first())).slice(1)).toEqual(['operator', 'Console', 'Sign-in failed', '', 'failure × 2']);

    await filter.getByLabel('Action').selectOption({ label: 'Any action' });
    await filter.getByLabel('Via').selectOption({ label: 'REST API' });
    await c.page.getByText('No event matches the filter').waitFor();
    await filter.getByLabel('Via').selectOption({ label: 'Console' });
    await expect.poll(async () => (await rows(table).count()) > 1).toBe(true);
    // A time after every event: nothing is that new.
    await filter.getByLabel('Since').fill('2999-01-01T00:00');
    await c.page.getByText('No event matches the filter').waitFor();
  });

  it('hides the audit log from a user: not in the menu, and its address shows the overview', async () => {
    await c.page.getByRole('button', { name: 'Sign out' }).click();
    await c.page.getByLabel('User name').fill('operator');
    await c.page.getByLabel('Password').fill(operatorPassword);
    await c.page.getByRole('button', { name: 'Sign in' }).click();
    const menu = c.page.getByRole('navigation', { name: 'Console' });
    await menu.waitFor();
    expect(await menu.getByRole('link', { name: 'Jobs' }).count()).toBe(1);
    expect(await menu.getByRole('link', { name: 'Audit log' }).count()).toBe(0);
    await c.page.evaluate("location.hash = '#/audit'");
    await c.page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();

    // The overview lists the user's own jobs only; everyone's are on the Jobs screen.
    const recent = c.page.getByRole('table', { name: 'Your recent jobs' });
    await recent.waitFor();
    expect(new Set((await recent.locator('tbody > tr > td:nth-child(2)').allTextContents()).map((text) => text.trim()))).toEqual(
      new Set(['projects on filer', 'export on nfs-box']),
    );
    await c.open('Jobs');
    await expect.poll(() => c.page.locator('.storage-count').textContent()).toBe('12 jobs');
  });
  it('filters by NAS, share, requester and time as the API does, and retries a failed job', async () => {
    // Last: its retry adds a job the tests above do not count. As the admin again, who sees every job.
    await c.page.getByRole('button', { name: 'Sign out' }).click();
    await c.signIn();
    await c.open('Jobs');
    const filter = c.page.getByRole('search', { name: 'Filter jobs' });
    const table = jobsTable();
    const count = async (query: Record<string, string>) => (await admin.jobs.list(query)).count;
    const filer = await admin.nas.show({ nas: 'filer' });
    const missing = await admin.shares.show({ share: 'missing', scope: { nas: 'filer' } });
    const rowsCount = () => rows(table).count();
    const perPage = c.page.getByRole('navigation', { name: 'Jobs pages' }).getByLabel('Per page');
    await perPage.selectOption('100');
    await expect.poll(rowsCount).toBe(await count({}));
    await filter.getByLabel('NAS').selectOption({ label: 'filer' });
    await expect.poll(rowsCount).toBe(await count({ nas_id: String(filer.id) }));
    expect(await count({ nas_id: String(filer.id) })).toBeLessThan(await count({}));
    await filter.getByLabel('Share').selectOption({ label: 'missing' });
    const missingJobs = await count({ nas_share_id: String(missing.id) });
    await expect.poll(rowsCount).toBe(missingJobs);
    expect(await filter.getByLabel('Share').locator('option').allTextContents()).toEqual(['Any share', 'missing', 'projects']);
    await filter.getByRole('button', { name: 'Clear filter' }).click();
    await filter.getByLabel('Requester contains').fill('operat');
    await expect.poll(rowsCount).toBe(await count({ requester: '~%operat%' }));
    await filter.getByLabel('Since').fill('2999-01-01T00:00');
    await c.page.getByText('No job matches the filter').waitFor();
    await filter.getByLabel('Since').fill('');
    await filter.getByLabel('Until').fill('2000-01-01T00:00');
    await c.page.getByText('No job matches the filter').waitFor();
    await filter.getByRole('button', { name: 'Clear filter' }).click();

    // Retry: the failed test of missing starts again, and the list shows the new job.
    await filter.getByLabel('Share').selectOption({ label: 'missing' });
    await expect.poll(rowsCount).toBe(missingJobs);
    await rows(table)
      .first()
      .getByRole('button', { name: /details$/ })
      .click();
    await c.page.getByRole('button', { name: 'Retry the test of missing' }).click();
    await expect.poll(rowsCount).toBe(missingJobs + 1);
    await expect.poll(() => rows(table).filter({ hasText: 'failed' }).count()).toBe(missingJobs + 1);
    expect(await c.capture('jobs-filters-retry')).toEqual([]);
    await filter.getByRole('button', { name: 'Clear filter' }).click();
  });
});
