import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import type { ActiveJobStatus, Job } from '@dms/core';
import type { AppCaller } from '../../src/main/router/index.js';
import { adminPassword } from '../test-desktop.js';
import { chromiumMissing, openConsole, type ConsoleHarness } from './harness.js';
import { runText } from '../../src/renderer/screens/watch/rule-text.js';

const skipReason = chromiumMissing('the dashboard, Schedules and Alerts e2e test');
const operatorPassword = 'an operator password, long enough';

/**
 * Issue 23's console (Done when: "two scans with files added between them → two rows in /scans
 * and a chart in the console showing the growth"): the share is scanned from the Shares screen,
 * files are added, it is scanned again, and the dashboard charts its growth. Around it: the
 * shares' health, alerts raised by a failed test, dismissed from the dashboard and the Alerts
 * screen with the header's count following, schedules built from the simple form with the
 * parser's reason at the rule, and the alert settings. Every screen is looked at through axe in
 * light and dark, and photographed into test-results/.
 */
describe.skipIf(skipReason !== undefined)('dashboard, Schedules, Alerts and Alert settings in headless Chromium', () => {
  let c: ConsoleHarness;
  let admin: AppCaller;
  let projectsId = 0;

  const finished = async (started: ActiveJobStatus): Promise<Job> => {
    let last: Job | undefined;
    for await (const job of await admin.jobs.follow({ jobId: started.job_id })) last = job;
    return last!;
  };
  const badge = () => c.page.getByRole('banner').getByRole('link', { name: /^Alerts:/ });
  /** The header's link to the Alerts screen, by its whole accessible name: the count in words. */
  const badgeNamed = (name: string) => c.page.getByRole('banner').getByRole('link', { name, exact: true });
  const row = (table: Locator, name: string) => table.getByRole('row').filter({ has: c.page.getByRole('cell', { name, exact: true }) });
  const headedRow = (table: Locator, name: string) => table.getByRole('row').filter({ has: c.page.getByRole('rowheader', { name, exact: true }) });
  const cellsOf = async (locator: Locator) => (await locator.getByRole('cell').allTextContents()).map((text) => text.trim());

  beforeAll(async () => {
    c = await openConsole();
    admin = c.desktop.caller();
    await admin.auth.signIn({ username: 'admin', password: adminPassword });
    await admin.users.create({ username: 'operator', password: operatorPassword });
    await admin.nas.create({ name: 'filer', host: 'localhost', type: 'local' });
    projectsId = (await admin.shares.create({ nas: 'filer', body: { name: 'projects', path: 'projects' } })).id;
    const missing = await admin.shares.create({ nas: 'filer', body: { name: 'missing', path: 'no/such/dir' } });
    await admin.shares.create({ nas: 'filer', body: { name: 'archive', path: 'projects/sub' } });
    const pool = await admin.pools.create({ name: 'tier1', type: 'primary', content: 'nas' });
    await admin.pools.update({ pool: pool.id, body: { nas_share_ids: [projectsId] } });
    expect((await finished(await admin.shares.test({ share: projectsId }))).status).toBe('completed');
    // The missing directory fails its first test: the share is unreachable, and an alert is raised.
    expect((await finished(await admin.shares.test({ share: missing.id }))).status).toBe('failed');
    await vi.waitFor(async () => expect(await admin.alerts.unseenCount()).toBe(1));
    await c.signIn();
  }, 120_000);
  afterAll(async () => {
    await c?.close();
  });

  it('shows Health and Last scanned on the Shares screen, then scans a share twice with files added between', async () => {
    await c.open('Shares');
    const table = c.page.getByRole('table', { name: 'Shares' });
    await row(table, 'projects').waitFor();
    expect(await table.getByRole('columnheader').allTextContents()).toEqual(
      expect.arrayContaining([expect.stringMatching(/^Health/), expect.stringMatching(/^Last scanned/)]),
    );
    // Name, NAS, Path, Pool, Files, Size, Health, Last scanned: never scanned is not "0 files".
    // Cell 0 is the row's selection checkbox.
    expect((await cellsOf(row(table, 'missing'))).slice(5, 9)).toEqual(['–not scanned', '–not scanned', 'Unreachable', 'not scanned']);
    expect((await cellsOf(row(table, 'archive'))).slice(7, 9)).toEqual(['Unknown', 'not scanned']);
    expect((await cellsOf(row(table, 'projects')))[7]).toBe('OK');

    const scan = async () => {
      await c.page.getByRole('button', { name: 'Scan projects on filer' }).click();
      await c.page.locator('.job-panel[data-kind="share_scan"][data-status="completed"]').waitFor();
      await c.page.getByRole('button', { name: 'Close Scan of projects on filer' }).click();
    };
    await scan();
    await expect.poll(async () => (await cellsOf(row(table, 'projects'))).slice(5, 7)).toEqual(['2', '8 bytes']);
    expect((await cellsOf(row(table, 'projects')))[8]).toMatch(/\d{4}/);
    for (const name of ['c.bin', 'd.bin', 'e.bin']) writeFileSync(join(c.desktop.root, 'projects', name), Buffer.alloc(2_000, 1));
    await scan();
    await expect.poll(async () => (await cellsOf(row(table, 'projects'))).slice(5, 7)).toEqual(['5', '6.0 kB']);

    // Two rows in the share's scans (GET /nas_shares/{id}/scans), newest first.
    const { count, scans } = await admin.shares.scans({ share: projectsId });
    expect(count).toBe(2);
    expect(scans.map((one) => [one.file_count, one.file_size_sum])).toEqual([
      [5, 6_008],
      [2, 8],
    ]);
  });

  it('charts the share’s growth on the dashboard, steps through it from the keyboard and shows it as a table', async () => {
    await c.open('Overview');
    const section = c.page.getByRole('region', { name: 'Share growth' });
    await expect.poll(() => section.getByRole('combobox', { name: 'Share' }).inputValue()).toBe(String(projectsId));
    const chart = section.getByRole('slider', { name: 'Scans of projects on filer' });
    await chart.waitFor();
    expect(await chart.getAttribute('aria-valuetext')).toMatch(/^Scan 2 of 2, .*: 6\.0 kB in 5 files$/);
    const summary = await section.locator('figcaption').textContent();
    expect(summary).toMatch(/projects on filer went from 8 bytes in 2 files to 6\.0 kB in 5 files: its size grew by 6\.0 kB, its file count grew by 3 files\./);
    // The canvas has drawn: two lines, their points, the axes and the legend.
    const canvas = chart.locator('canvas');
    await expect.poll(() => canvas.evaluate((element) => (element as unknown as { width: number }).width)).toBeGreaterThan(300);
    const inked = await canvas.evaluate((element) => {
      const canvasElement = element as unknown as {
        width: number;
        height: number;
        getContext(kind: '2d'): { getImageData(...a: number[]): { data: Uint8ClampedArray } };
      };
      const { data } = canvasElement.getContext('2d').getImageData(0, 0, canvasElement.width, canvasElement.height);
      let count = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) count++;
      return count;
    });
    expect(inked).toBeGreaterThan(2_000);

    await chart.focus();
    await c.page.keyboard.press('Home');
    await expect.poll(() => chart.getAttribute('aria-valuetext')).toMatch(/^Scan 1 of 2, .*: 8 bytes in 2 files$/);
    expect(await section.locator('.chart-readout').textContent()).toBe(await chart.getAttribute('aria-valuetext'));
    await c.page.keyboard.press('ArrowRight');
    await expect.poll(() => chart.getAttribute('aria-valuenow')).toBe('2');
    await c.page.keyboard.press('ArrowRight');
    expect(await chart.getAttribute('aria-valuenow')).toBe('2');

    await section.getByRole('button', { name: 'Show as table' }).click();
    const scans = section.getByRole('table', { name: 'Scans of projects on filer' });
    await scans.waitFor();
    expect((await scans.locator('tbody > tr').all()).length).toBe(2);
    expect(await cellsOf(scans.locator('tbody > tr').nth(0))).toEqual([expect.any(String), '8 bytes', '2', expect.stringMatching(/ ms$/)]);
    expect((await cellsOf(scans.locator('tbody > tr').nth(1))).slice(1, 3)).toEqual(['6.0 kB', '5']);
    await section.getByRole('button', { name: 'Show as chart' }).click();
    await chart.waitFor();

    // Capacity per NAS and per pool, with their growth over 30 days.
    const perNas = c.page.getByRole('table', { name: 'Per NAS' });
    expect(await cellsOf(headedRow(perNas, 'filer'))).toEqual(['5 files', '6.0 kB', '+6.0 kB', '+3 files', '1 of 3 shares scanned']);
    expect(await cellsOf(headedRow(c.page.getByRole('table', { name: 'Per pool' }), 'tier1'))).toEqual([
      '5 files',
      '6.0 kB',
      '+6.0 kB',
      '+3 files',
      '1 of 1 share scanned',
    ]);
    // The health of every share, and the open alert.
    expect(await c.page.getByRole('list', { name: 'Share health' }).getByRole('listitem').allTextContents()).toEqual([
      '1 OKpassed its latest test',
      '1 Unreachablefailed its latest test',
      '1 Unknownnot tested yet',
    ]);
    expect(await cellsOf(c.page.getByRole('table', { name: 'Open alerts' }).locator('tbody > tr'))).toEqual([
      'error',
      'Share unreachable',
      'Share missing',
      "share test of 'missing' failed: path 'no/such/dir' not found on share",
      expect.stringMatching(/\d{4}/),
      'DismissSilence',
    ]);
    // The chart keeps the focus and its tooltip for the photograph.
    await chart.focus();
    expect(await c.capture('dashboard')).toEqual([]);
    expect(c.cspViolations).toEqual([]);
  });

  it('links each health count to the Shares screen filtered to it', async () => {
    await c.page
      .getByRole('list', { name: 'Share health' })
      .getByRole('link', { name: /Unreachable/ })
      .click();
    await c.page.getByRole('heading', { level: 1, name: 'Shares' }).waitFor();
    const table = c.page.getByRole('table', { name: 'Shares' });
    await expect.poll(async () => (await table.locator('tbody > tr > td:nth-child(2)').allTextContents()).map((text) => text.trim())).toEqual(['missing']);
    expect(await c.page.getByRole('search', { name: 'Filter shares' }).getByLabel('Health').inputValue()).toBe('unreachable');
    expect(await c.page.locator('.storage-count').textContent()).toBe('1 share matches the filter');
    // The menu's Shares is the whole list again.
    await c.open('Shares');
    await expect.poll(() => c.page.locator('.storage-count').textContent()).toBe('3 shares');
  });

  it('dismisses an alert from the dashboard, and the header’s count follows on every screen', async () => {
    await badgeNamed('Alerts: 1 open, not dismissed').waitFor();
    expect(await badge().locator('.badge-count').textContent()).toBe('1');
    await c.open('Overview');
    const alerts = c.page.getByRole('table', { name: 'Open alerts' });
    await alerts.getByRole('button', { name: 'Dismiss alert Share unreachable: Share missing' }).click();
    await c.page.getByText('No open alerts').waitFor();
    await badgeNamed('Alerts: none open').waitFor();

    await badge().click();
    await c.page.getByRole('heading', { level: 1, name: 'Alerts' }).waitFor();
    const table = c.page.getByRole('table', { name: 'Alerts' });
    await table.waitFor();
    const cells = await cellsOf(table.locator('tbody > tr'));
    expect(cells.slice(0, 4)).toEqual(['error', 'Share unreachable', 'Share missing', "share test of 'missing' failed: path 'no/such/dir' not found on share"]);
    expect(cells[6]).toMatch(/^OpenDismissed /);
    await table.getByRole('button', { name: 'Undismiss alert Share unreachable: Share missing' }).click();
    await badgeNamed('Alerts: 1 open, not dismissed').waitFor();
    await table.getByRole('button', { name: 'Dismiss alert Share unreachable: Share missing' }).waitFor();

    // "About" is a link to the share: the Shares screen showing that one share.
    await table.getByRole('link', { name: 'Share missing' }).click();
    await c.page.getByRole('heading', { level: 1, name: 'Shares' }).waitFor();
    await c.page.getByRole('status').filter({ hasText: 'Showing the share you opened.' }).waitFor();
    const shares = c.page.getByRole('table', { name: 'Shares' });
    await expect.poll(() => shares.locator('tbody > tr').count()).toBe(1);
    expect(await shares.locator('tbody > tr').first().getByRole('cell').nth(1).textContent()).toBe('missing');
    expect(await c.capture('alert-share-link')).toEqual([]);
    await c.open('Alerts');
  });

  it('filters alerts by state, source and level, and lists cleared ones too', async () => {
    // The share's directory appears: its next test passes and clears the alert.
    const missing = await admin.shares.show({ share: 'missing', scope: { nas: 'filer' } });
    await admin.shares.update({ share: missing.id, body: { path: 'projects/sub' } });
    expect((await finished(await admin.shares.test({ share: missing.id }))).status).toBe('completed');
    await vi.waitFor(async () => expect(await admin.alerts.unseenCount()).toBe(0));
    const filter = c.page.getByRole('search', { name: 'Filter alerts' });
    const table = c.page.getByRole('table', { name: 'Alerts' });
    await c.page.getByRole('button', { name: 'Refresh' }).click();
    await c.page.getByText('No open alerts', { exact: true }).waitFor();
    await badgeNamed('Alerts: none open').waitFor();

    await filter.getByLabel('Show').selectOption({ label: 'All alerts, cleared too' });
    await table.waitFor();
    expect((await cellsOf(table.locator('tbody > tr')))[6]).toMatch(/^Cleared /);
    await filter.getByLabel('Source').selectOption({ label: 'Scan failed' });
    await c.page.getByText('No alert matches the filter').waitFor();
    await filter.getByLabel('Source').selectOption({ label: 'Share unreachable' });
    await filter.getByLabel('Level').selectOption({ label: 'critical' });
    await c.page.getByText('No alert matches the filter').waitFor();
    await filter.getByLabel('Level').selectOption({ label: 'error and above' });
    await table.waitFor();
    expect(await c.page.locator('.storage-count').textContent()).toBe('1 alert matches the filter');
    // A second, open alert: the same share fails again.
    await admin.shares.update({ share: missing.id, body: { path: 'no/such/dir' } });
    expect((await finished(await admin.shares.test({ share: missing.id }))).status).toBe('failed');
    await vi.waitFor(async () => expect(await admin.alerts.unseenCount()).toBe(1));
    await filter.getByRole('button', { name: 'Clear filter' }).click();
    await c.page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => table.locator('tbody > tr').count()).toBe(2);
    expect(await c.capture('alerts')).toEqual([]);
  });

  it('builds a schedule from the simple form, shows its rule text, and puts the parser’s reason at the rule', async () => {
    await c.open('Schedules');
    await c.page.getByText('No schedules yet').waitFor();
    const form = c.page.getByRole('form', { name: 'New schedule' });
    await form.getByLabel('Name', { exact: true }).fill('twice a day scan');
    await form.getByLabel('Action').selectOption({ label: 'Scan each share' });
    await form.getByRole('checkbox', { name: 'projects on filer' }).check();
    await form.getByLabel('Every').fill('2');
    await form.getByLabel('Unit').selectOption('hours');
    await form.getByLabel('Starting on').fill('2030-11-25');
    await form.getByLabel('At', { exact: true }).fill('12:00');
    await form.getByLabel('Time zone').selectOption('Europe/Paris');
    await form.getByRole('checkbox', { name: 'Monday' }).check();
    await form.getByRole('checkbox', { name: 'Wednesday' }).check();
    const text = form.getByLabel('Rule (RFC 5545)');
    expect(await text.inputValue()).toBe('DTSTART;TZID=Europe/Paris:20301125T120000\nRRULE:FREQ=HOURLY;INTERVAL=2;BYDAY=MO,WE');
    expect(await text.getAttribute('readonly')).not.toBeNull();
    // The form says when the first run is; the core's next run in the list below agrees.
    expect(await form.locator('.first-run').textContent()).toBe('First run: Mon, Nov 25, 2030, 12:00 (Europe/Paris)');
    await form.getByRole('button', { name: 'Add schedule' }).click();

    const table = c.page.getByRole('table', { name: 'Schedules' });
    await row(table, 'twice a day scan').waitFor();
    const cells = await cellsOf(row(table, 'twice a day scan'));
    expect(cells.slice(0, 4)).toEqual([
      'twice a day scan',
      'Scan',
      'projects on filer',
      'Every 2 hours on Mon, Wed, from Nov 25, 2030, 12:00 (Europe/Paris)DTSTART;TZID=Europe/Paris:20301125T120000\nRRULE:FREQ=HOURLY;INTERVAL=2;BYDAY=MO,WE',
    ]);
    // Monday 25 November 2030, 12:00 in Paris: 11:00 UTC, shown in the browser's zone.
    expect(cells[4]).toBe(new Date('2030-11-25T11:00:00Z').toLocaleString('en', { dateStyle: 'medium', timeStyle: 'short' }));
    expect(cells.slice(5, 9)).toEqual(['not yet', '0', '0', 'yes']);
    await c.page.getByRole('status').filter({ hasText: 'Schedule twice a day scan added.' }).waitFor();

    // Edit by hand: a rule the parser refuses shows its reason at the rule text.
    await c.page.getByRole('button', { name: 'Edit schedule twice a day scan' }).click();
    const edit = c.page.getByRole('form', { name: 'Edit schedule twice a day scan' });
    expect(await edit.getByLabel('Every').inputValue()).toBe('2');
    expect(await edit.getByRole('checkbox', { name: 'Wednesday' }).isChecked()).toBe(true);
    await edit.getByLabel('Edit the rule text by hand (advanced)').check();
    expect(await edit.getByLabel('Every').isDisabled()).toBe(true);
    const raw = edit.getByLabel('Rule (RFC 5545)');
    await raw.fill('DTSTART:20301125T120000Z\nRRULE:FREQ=SOMETIMES');
    await edit.getByRole('button', { name: 'Save schedule' }).click();
    const reason = edit.locator('#schedule-1-rrule-error');
    await expect.poll(() => reason.textContent()).toMatch(/^rrule RRULE: FREQ=SOMETIMES is not a frequency; FREQ takes YEARLY, /);
    expect(await raw.getAttribute('aria-invalid')).toBe('true');
    expect((await raw.getAttribute('aria-describedby'))?.split(' ')).toContain('schedule-1-rrule-error');
    expect(await c.capture('schedules-rule-error')).toEqual([]);

    // A rule the simple form cannot build is kept as text, and saved.
    await raw.fill('DTSTART:20301125T120000Z\nRRULE:FREQ=MINUTELY;INTERVAL=30;BYHOUR=8,9,10');
    await edit.getByRole('button', { name: 'Save schedule' }).click();
    await c.page.getByRole('status').filter({ hasText: 'Schedule twice a day scan saved.' }).waitFor();
    await expect
      .poll(async () => (await cellsOf(row(table, 'twice a day scan')))[3])
      .toBe('Custom ruleDTSTART:20301125T120000Z\nRRULE:FREQ=MINUTELY;INTERVAL=30;BYHOUR=8,9,10');

    // A second schedule: every 15 minutes on a NAS's shares, in UTC, off.
    const next = c.page.getByRole('form', { name: 'New schedule' });
    await next.getByLabel('Name', { exact: true }).fill('health check');
    await next.getByRole('radio', { name: 'The shares of a NAS' }).check();
    await next.getByLabel('Every').fill('15');
    await next.getByLabel('Unit').selectOption('minutes');
    await next.getByLabel('Starting on').fill('2030-01-01');
    await next.getByLabel('At', { exact: true }).fill('00:00');
    await next.getByLabel('Time zone').selectOption('UTC');
    await next.getByLabel('Enabled: run on this schedule').uncheck();
    await next.getByRole('button', { name: 'Add schedule' }).click();
    await row(table, 'health check').waitFor();
    expect((await cellsOf(row(table, 'health check'))).slice(1, 9)).toEqual([
      'Test',
      'NAS filer',
      'Every 15 minutes, from Jan 1, 2030, 00:00 (UTC)DTSTART:20300101T000000Z\nRRULE:FREQ=MINUTELY;INTERVAL=15',
      'off',
      'not yet',
      '0',
      '0',
      'no',
    ]);
    expect(await admin.schedules.show({ schedule: 'health check' })).toMatchObject({ nas_id: 1, enabled: false, next: null });
    expect(await c.capture('schedules')).toEqual([]);
  });

  it('starts a new schedule now, in the admin’s time zone (a TZID), and says when it first runs', async () => {
    const zone = 'America/New_York';
    const cdp = await c.page.context().newCDPSession(c.page);
    await cdp.send('Emulation.setTimezoneOverride', { timezoneId: zone });
    try {
      // Opened again, the form starts from the browser's zone.
      await c.open('Alerts');
      await c.open('Schedules');
      const form = c.page.getByRole('form', { name: 'New schedule' });
      expect(await form.getByLabel('Time zone').inputValue()).toBe(zone);
      await form.getByLabel('Every').fill('2');
      await form.getByLabel('Unit').selectOption('minutes');
      const text = await form.getByLabel('Rule (RFC 5545)').inputValue();
      const [, stamp] = /^DTSTART;TZID=America\/New_York:(\d{8}T\d{4})00\nRRULE:FREQ=MINUTELY;INTERVAL=2$/.exec(text) ?? [];
      // Now, not the next full hour: the next whole minute on New York's clock (or the one after, at a minute's turn).
      const wallClock = (at: number) =>
        new Intl.DateTimeFormat('en-CA', {
          timeZone: zone,
          year: 'numeric',
          month: '2-digit',
          day: '2-digit',
          hour: '2-digit',
          minute: '2-digit',
          hourCycle: 'h23',
        })
          .format(at)
          .replace(/[-:, ]/g, '')
          .replace(/^(\d{8})/, '$1T');
      const minute = Math.floor(Date.now() / 60_000) * 60_000;
      const start = [-60_000, 0, 60_000].map((shift) => minute + shift).find((at) => wallClock(at) === stamp);
      expect(start, `DTSTART ${stamp} within a minute of now`).toBeDefined();
      const firstRun = await form.locator('.first-run').textContent();
      expect([0, 120_000].map((step) => `First run: ${runText(new Date(start! + step), zone)}`)).toContain(firstRun);
      expect(await c.capture('schedules-new-now')).toEqual([]);
    } finally {
      await cdp.send('Emulation.setTimezoneOverride', { timezoneId: '' });
      await cdp.detach();
    }
  });

  it('lets an admin switch alert sources and set their level', async () => {
    await c.open('Alert settings');
    const table = c.page.getByRole('table', { name: 'Alert sources' });
    const unreachable = headedRow(table, 'Share unreachable');
    await unreachable.waitFor();
    expect(await unreachable.getByLabel('Level of Share unreachable alerts').inputValue()).toBe('4');
    await unreachable.getByLabel('Level of Share unreachable alerts').selectOption({ label: 'critical (5)' });
    await unreachable.getByRole('status').filter({ hasText: 'Saved: Share unreachable on, at critical.' }).waitFor();
    const scanFailed = headedRow(table, 'Scan failed');
    await scanFailed.getByRole('checkbox', { name: 'Raise Scan failed alerts' }).uncheck();
    await scanFailed.getByRole('status').filter({ hasText: 'Saved: Scan failed off.' }).waitFor();
    const saved = (await admin.alertSettings.list()).alert_settings;
    expect(saved.find((setting) => setting.source === 'share_unreachable')).toMatchObject({ level: 5, enabled: true });
    expect(saved.find((setting) => setting.source === 'scan_failed')).toMatchObject({ enabled: false });
    expect(await c.capture('alert-settings')).toEqual([]);
  });

  it('lets an admin damp a flapping source: raise after, clear after, empty for automatic, and says what it refuses', async () => {
    await c.open('Alert settings');
    const table = c.page.getByRole('table', { name: 'Alert sources' });
    const unreachable = headedRow(table, 'Share unreachable');
    const raiseAfter = unreachable.getByLabel('Raise after how many seconds, for Share unreachable alerts');
    const clearAfter = unreachable.getByLabel('Clear after how many seconds, for Share unreachable alerts');
    const save = unreachable.getByRole('button', { name: 'Save damping of Share unreachable alerts' });
    expect(await raiseAfter.getAttribute('placeholder')).toBe('automatic');
    expect(await raiseAfter.inputValue()).toBe('');
    expect(await clearAfter.inputValue()).toBe('0');
    await raiseAfter.fill('600');
    await clearAfter.fill('60');
    await save.click();
    await unreachable.getByRole('status').filter({ hasText: 'Saved: Share unreachable raised after 600 s, cleared after 60 s.' }).waitFor();
    expect((await admin.alertSettings.list()).alert_settings.find((setting) => setting.source === 'share_unreachable')).toMatchObject({
      raise_after_seconds: 600,
      clear_after_seconds: 60,
    });
    await clearAfter.fill('90000');
    await save.click();
    await unreachable.getByRole('alert').filter({ hasText: 'Clear after (seconds) must be between 0 and 86400' }).waitFor();
    await clearAfter.fill('0');
    await raiseAfter.fill('');
    await save.click();
    await unreachable.getByRole('status').filter({ hasText: 'Saved: Share unreachable raised after the automatic hold, cleared after 0 s.' }).waitFor();
    expect((await admin.alertSettings.list()).alert_settings.find((setting) => setting.source === 'share_unreachable')).toMatchObject({
      raise_after_seconds: null,
      clear_after_seconds: 0,
    });
    expect(await c.capture('alert-settings-damping')).toEqual([]);
  });

  it('shows an operator the Watch screens its role reads, Alert settings included (read only), not Notifications', async () => {
    await c.page.getByRole('button', { name: 'Sign out' }).click();
    await c.page.getByLabel('User name').fill('operator');
    await c.page.getByLabel('Password').fill(operatorPassword);
    await c.page.getByRole('button', { name: 'Sign in' }).click();
    const menu = c.page.getByRole('navigation', { name: 'Console' });
    await menu.waitFor();
    expect(await menu.getByRole('link', { name: 'Schedules' }).count()).toBe(1);
    expect(await menu.getByRole('link', { name: 'Alerts', exact: true }).count()).toBe(1);
    // An operator's role reads the alert settings (changing them is an admin's), not the channels (docs/api.md#roles).
    expect(await menu.getByRole('link', { name: 'Alert settings' }).count()).toBe(1);
    expect(await menu.getByRole('link', { name: 'Notifications' }).count()).toBe(0);
    await badgeNamed('Alerts: 1 open, not dismissed').waitFor();
    expect(c.cspViolations).toEqual([]);
  });
});
