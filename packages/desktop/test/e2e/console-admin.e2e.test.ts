import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActiveJobStatus } from '@dms/core';
import type { AppCaller } from '../../src/main/router/index.js';
import { scopePresets } from '../../src/renderer/screens/security/scope-presets.js';
import { adminPassword } from '../test-desktop.js';
import { chromiumMissing, openConsole, type ConsoleHarness } from './harness.js';

const skipReason = chromiumMissing('the console-for-admins e2e test');

/** The `name` of the element that has the keyboard focus. */
const focusedName = "document.activeElement?.getAttribute('name') ?? document.activeElement?.tagName";

describe.skipIf(skipReason !== undefined)('console for admins (issue 29, items 4-7) in headless Chromium', () => {
  let c: ConsoleHarness;
  let admin: AppCaller;
  let testJobId = '';

  const finish = async (started: ActiveJobStatus) => {
    for await (const job of await admin.jobs.follow({ jobId: started.job_id })) if (job.status === 'completed' || job.status === 'failed') return job;
    throw new Error(`job ${started.job_id} stopped being followed before it ended`);
  };

  beforeAll(async () => {
    c = await openConsole();
    admin = c.desktop.caller();
    await admin.auth.signIn({ username: 'admin', password: adminPassword });
    // Names whose byte-wise order puts the capital first: "Beta" before "alpha".
    for (const name of ['filer', 'Beta', 'alpha']) await admin.nas.create({ name, host: 'localhost', type: 'local' });
    const projects = await admin.shares.create({ nas: 'filer', body: { name: 'projects', path: 'projects' } });
    testJobId = (await finish(await admin.shares.test({ share: projects.id }))).job_id;
  }, 120_000);
  afterAll(async () => {
    await c?.close();
  });

  const main = () => c.page.getByRole('main');

  it('sign-in focuses the user name, says "Enter your password" for an empty one and moves focus to the field to fix', async () => {
    const { page } = c;
    await page.goto(c.url);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await expect.poll(() => page.evaluate(focusedName)).toBe('username');

    await page.keyboard.type('admin');
    await page.keyboard.press('Enter');
    await page.getByText('Enter your password').waitFor();
    await expect.poll(() => page.evaluate(focusedName)).toBe('password');
    expect(await page.getByLabel('Password').getAttribute('aria-invalid')).toBe('true');
    expect(await c.capture('sign-in-empty-password')).toEqual([]);

    // A refusal names no field: back to the user name, to retype.
    await page.keyboard.type('not the password');
    await page.keyboard.press('Enter');
    await page.getByRole('alert').waitFor();
    await expect.poll(() => page.evaluate(focusedName)).toBe('username');
    expect(await page.getByText('Enter your password').count()).toBe(0);

    await page.getByLabel('Password').fill(adminPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Console' }).waitFor();
  });

  it('ticks an API key’s scopes from a preset in one click on a compact grid, editable afterwards, keeps the preset’s name, and a failed create focuses the name', async () => {
    const { page } = c;
    await c.open('API keys');
    const grid = main().getByRole('table', { name: 'Scopes by controller and action' });
    const box = (pair: string) => grid.getByRole('checkbox', { name: pair, exact: true });
    const summary = main().locator('.scope-summary');
    const ticked = async () =>
      (
        await Promise.all(
          (await grid.getByRole('checkbox').all()).map(async (entry) =>
            (await entry.isChecked()) ? (await entry.getAttribute('aria-label'))!.replace(' / ', '/') : '',
          ),
        )
      ).filter(Boolean);
    const preset = (id: string) => scopePresets.find((entry) => entry.id === id)!;

    // Every scope fits one grid, not a row of dropdowns per scope.
    const height = (await main().locator('.scope-picker').boundingBox())!.height;
    expect(height).toBeLessThan(800);

    await page.getByRole('button', { name: /^Full without passwords preset/ }).click();
    await summary.filter({ hasText: `Full without passwords: ${preset('full').scopes.length} scopes ticked.` }).waitFor();
    expect(await box('nas_shares / get_password').isChecked()).toBe(false);

    await page.getByRole('button', { name: /^Read-only preset/ }).click();
    await summary.filter({ hasText: `Read-only: ${preset('read-only').scopes.length} scopes ticked.` }).waitFor();
    for (const pair of ['users / index', 'users / show', 'audit_events / index', 'nas / show']) expect(await box(pair).isChecked()).toBe(true);
    expect(await box('nas / create').isChecked()).toBe(false);

    await page.getByRole('button', { name: /^Operator preset/ }).click();
    await summary.filter({ hasText: `Operator: ${preset('operator').scopes.length} scopes ticked.` }).waitFor();
    expect(await page.getByRole('button', { name: /^Operator preset/ }).getAttribute('aria-pressed')).toBe('true');
    expect(await ticked()).toEqual(expect.arrayContaining(['nas_shares/test', 'nas_shares/scan', 'nas/index']));

    // Editable afterwards: a box unticked is no longer the preset; ticked again, it is.
    await box('nas / index').uncheck();
    await summary.filter({ hasText: new RegExp(`^${preset('operator').scopes.length - 1} scopes ticked\\.$`) }).waitFor();
    await box('nas / index').check();
    await summary.filter({ hasText: `Operator: ${preset('operator').scopes.length} scopes ticked.` }).waitFor();

    // No name: the core refuses it, and the keyboard lands on the name field.
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect.poll(() => page.evaluate(focusedName)).toBe('name');
    expect(await main().getByLabel('Name', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(await c.capture('api-key-presets')).toEqual([]);

    await page.keyboard.type('monitoring');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('heading', { name: 'API key monitoring created' }).waitFor();
    const [key] = (await admin.apiKeys.list({})).api_keys.filter((entry) => entry.name === 'monitoring');
    expect(key!.api_key_scopes.map((scope) => `${scope.controller}/${scope.action}`).sort()).toEqual(
      preset('operator')
        .scopes.map(({ controller, action }) => `${controller}/${action}`)
        .sort(),
    );
    // The list names the preset instead of a line per scope.
    const row = main().getByRole('row').filter({ hasText: 'monitoring' });
    expect(await row.getByRole('cell').nth(2).textContent()).toBe(`Operator (${preset('operator').scopes.length} scopes)`);
    expect(await c.capture('api-key-list')).toEqual([]);
  });

  it('shows the event catalogue beside a trap target’s band, and what the band receives', async () => {
    const { page } = c;
    await c.open('Trap targets');
    const events = main().getByRole('table', { name: 'Events and their levels' });
    await events.waitFor();
    const row = (name: string) => events.getByRole('row').filter({ has: page.getByText(name, { exact: true }) });
    expect(await row('share_scan_failed').textContent()).toContain('error (4)');
    expect(await row('share_scan_failed').textContent()).toContain('a share scan failed');
    expect(await row('share_scan_completed').textContent()).toContain('info (1)');
    // The band starts as info to critical: every event of a fixed level passes.
    expect(await row('share_scan_completed').getByRole('cell').last().textContent()).toBe('yes');

    // Lowest severity to error by keyboard: info and warning events no longer pass; alert events depend on their alert's level.
    const lowest = page.getByLabel('Lowest severity');
    await lowest.focus();
    for (let step = 0; step < 3; step++) await page.keyboard.press('ArrowRight');
    expect(await lowest.getAttribute('aria-valuetext')).toBe('error (4)');
    await expect.poll(() => row('share_scan_completed').getByRole('cell').last().textContent()).toBe('no');
    expect(await row('share_scan_failed').getByRole('cell').last().textContent()).toBe('yes');
    expect(await row('job_interrupted').getByRole('cell').last().textContent()).toBe('no');
    expect(await row('alert_raised').textContent()).toContain("the alert's level");
    expect(await row('alert_raised').getByRole('cell').last().textContent()).toBe('by its alert’s level');
    const summary = await main().locator('.band-events-summary').textContent();
    expect(summary).toContain('share_test_failed, share_scan_failed');
    expect(summary).toContain('at their alert');
    expect(summary).toContain('from error to critical');

    // An empty manager: the core refuses it, and the keyboard lands on the manager field.
    await page.getByRole('button', { name: 'Add trap target' }).click();
    await expect.poll(() => page.evaluate(focusedName)).toBe('manager');
    expect(await c.capture('trap-band-events')).toEqual([]);
  });

  it('opens a job from the overview’s job rows: the Jobs screen with that job’s detail open', async () => {
    const { page } = c;
    await c.open('Overview');
    const link = main().getByRole('link', { name: /^Test of projects on filer, .*: open the job$/ });
    await link.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Jobs', exact: true }).waitFor();
    expect(page.url()).toContain(`#/jobs?job=${testJobId}`);
    const detail = main().getByRole('region', { name: 'Test of projects on filer' });
    await detail.waitFor();
    expect(await detail.textContent()).toContain('completed');
    expect(await main().locator('tbody > tr.history-row').count()).toBe(1);
    expect(await c.capture('overview-job-opened')).toEqual([]);
    await main().getByRole('link', { name: 'Show every job' }).click();
    await expect.poll(() => page.url()).toMatch(/#\/jobs$/);
  });

  it('links a NAS delete refused for its shares to the shares of that NAS', async () => {
    const { page } = c;
    await c.open('NAS');
    await page.getByRole('button', { name: 'Delete NAS filer' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete NAS filer' });
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await dialog.getByRole('alert').filter({ hasText: 'still has 1 share' }).waitFor();
    const link = dialog.getByRole('link', { name: 'Show the shares of NAS filer' });
    expect(await c.capture('nas-still-has-shares')).toEqual([]);
    const filer = (await admin.nas.list({})).nas.find((nas) => nas.name === 'filer')!;
    expect(await link.getAttribute('href')).toBe(`#/shares?nas_id=${filer.id}`);
    await link.click();
    await page.getByRole('heading', { level: 1, name: 'Shares', exact: true }).waitFor();
    expect(page.url()).toContain(`#/shares?nas_id=${filer.id}`);
    // The list opens filtered on that NAS.
    await expect.poll(() => main().locator('select[name="filter-nas"]').inputValue()).toBe(String(filer.id));
  });

  it('offers names in case-insensitive order where the console loads them whole (a schedule’s NAS)', async () => {
    await c.open('Schedules');
    await main().getByRole('radio', { name: 'The shares of a NAS' }).check();
    const nasNames = async () =>
      (await main().locator('select[name="nas"] option').allTextContents()).filter((name) => ['alpha', 'Beta', 'filer'].includes(name));
    await expect.poll(nasNames).toEqual(['alpha', 'Beta', 'filer']);
    expect(await c.capture('schedule-nas-order')).toEqual([]);
    expect(c.cspViolations).toEqual([]);
  });
});
