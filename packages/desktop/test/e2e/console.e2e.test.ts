import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, openConsole, type ConsoleHarness } from './harness.js';
import { adminPassword } from '../test-desktop.js';

const skipReason = chromiumMissing('the console shell e2e test');

describe.skipIf(skipReason !== undefined)('console shell in headless Chromium (HTTP link)', () => {
  let c: ConsoleHarness;
  beforeAll(async () => {
    c = await openConsole();
  }, 120_000);
  afterAll(async () => {
    await c?.close();
  });

  it('signs in to the overview, with an empty state that says what to do next', async () => {
    await c.signIn();
    await c.page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await c.page.getByText('No jobs yet').waitFor();
    expect(await c.page.getByRole('list', { name: 'Counts' }).textContent()).toContain('0 NAS');
    // A path for a new instance: the first step is the one to take, and it links there.
    const steps = c.page.getByRole('region', { name: 'First steps' });
    expect((await steps.getByRole('listitem').allTextContents()).map((text) => text.split(' – ')[0])).toEqual(['Add your first NAS', 'Add a share', 'Test it']);
    expect(await steps.locator('[aria-current="step"]').textContent()).toBe('Add your first NAS');
    expect(await steps.getByRole('link', { name: 'Add your first NAS' }).getAttribute('href')).toBe('#/nas');
    expect(await c.capture('overview')).toEqual([]);
  });

  it('walks the first steps: a NAS and a share done, then Test it is next, and the path goes once a share is tested', async () => {
    const caller = c.desktop.caller();
    await caller.auth.signIn({ username: 'admin', password: adminPassword });
    await caller.nas.create({ name: 'filer', host: 'localhost', type: 'local' });
    const share = await caller.shares.create({ nas: 'filer', body: { name: 'projects', path: 'projects' } });
    await c.open('NAS');
    await c.open('Overview');
    const steps = c.page.getByRole('region', { name: 'First steps' });
    await expect.poll(() => steps.locator('[aria-current="step"]').textContent()).toBe('Test it');
    expect(await steps.getByRole('listitem').first().textContent()).toBe('Add your first NAS (done)');
    expect(await c.capture('overview-first-steps')).toEqual([]);
    for await (const job of await caller.jobs.follow({ jobId: (await caller.shares.test({ share: share.id })).job_id })) if (job.status === 'completed') break;
    await c.open('NAS');
    await c.open('Overview');
    await c.page.getByRole('list', { name: 'Counts' }).waitFor();
    await expect.poll(() => steps.count()).toBe(0);
  });

  it('reaches every screen from the menu with the keyboard, and focus lands on its heading', async () => {
    const menu = c.page.getByRole('navigation', { name: 'Console' });
    await menu.getByRole('link', { name: 'Settings', exact: true }).focus();
    await c.page.keyboard.press('Enter');
    await c.page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    expect(await c.page.locator(':focus').evaluate((element) => element.tagName)).toBe('H1');
    expect(await menu.getByRole('link', { name: 'Settings', exact: true }).getAttribute('aria-current')).toBe('page');
  });

  it('toggles the theme: system, then light, then dark, kept across a reload', async () => {
    const toggle = c.page.getByRole('button', { name: /^Theme:/ });
    const background = () => c.page.locator('body').evaluate((body) => body.ownerDocument.defaultView?.getComputedStyle(body).backgroundColor);
    await c.page.emulateMedia({ colorScheme: 'dark' });
    expect(await background()).toBe('rgb(21, 24, 29)');
    await toggle.click();
    expect(await toggle.textContent()).toBe('Theme: light');
    expect(await background()).toBe('rgb(255, 255, 255)');
    await toggle.click();
    await c.page.emulateMedia({ colorScheme: 'light' });
    expect(await background()).toBe('rgb(21, 24, 29)');
    await c.page.reload();
    await c.signIn();
    expect(await c.page.getByRole('button', { name: /^Theme:/ }).textContent()).toBe('Theme: dark');
    await c.page.getByRole('button', { name: /^Theme:/ }).click();
    await c.page.emulateMedia({ colorScheme: null });
    expect(c.cspViolations).toEqual([]);
  });
});
