import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '@dms/http-api';
import { chromiumArgs, chromiumPath } from './support/chromium.js';
import { startDms, type DmsServer } from './support/dms-server.js';

const results = fileURLToPath(new URL('../test-results/', import.meta.url));

let server: DmsServer;
let browser: Browser;
let page: Page;
/** Requests to anything but the server, aborted: the page must not need them. */
const offHost: string[] = [];
const consoleProblems: string[] = [];

beforeAll(async () => {
  mkdirSync(results, { recursive: true });
  server = await startDms();
  browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.protocol === 'data:' || url.hostname === '127.0.0.1') return route.continue();
    offHost.push(url.href);
    return route.abort();
  });
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') consoleProblems.push(message.text());
  });
  page.on('pageerror', (error) => consoleProblems.push(error.message));
  await page.goto(`${server.url}/api/v2/docs`);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

type Operation = { tags?: string[]; summary?: string };
/** The summaries of the document's operations at the paths `where` picks, in document order. */
const summariesWhere = (where: (path: string, operation: Operation) => boolean) =>
  Object.entries(openApiDocument().paths ?? {}).flatMap(([path, item]) =>
    Object.values(item as Record<string, Operation>)
      .filter((operation) => where(path, operation))
      .map((operation) => operation.summary ?? ''),
  );
const tagDisplayName = (name: string) =>
  (openApiDocument().tags as Array<{ name: string; 'x-displayName'?: string }> | undefined)?.find((tag) => tag.name === name)?.['x-displayName'] ?? name;
const shareSummaries = summariesWhere((_path, operation) => operation.tags?.includes('nas_shares') === true);

describe('the API reference page, offline in headless Chromium', () => {
  it('renders the document and lists every NAS share operation', async () => {
    await page.getByRole('heading', { name: 'dms: data management service for NAS storage' }).waitFor();
    const sidebar = page.locator('aside, nav').first();
    for (const summary of shareSummaries) await expect.poll(() => sidebar.getByText(summary, { exact: true }).count(), { message: summary }).toBeGreaterThan(0);
    expect(shareSummaries.length).toBeGreaterThanOrEqual(19);
    // The filter grammar and the error model are in the introduction.
    await expect.poll(() => page.getByText('matches a pattern').count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByText('Every error answer is a').count()).toBeGreaterThan(0);
    await page.screenshot({ path: `${results}reference-page.png` });
  });

  it('lists the job history and the audit log operations', async () => {
    const sidebar = page.locator('aside, nav').first();
    const history = summariesWhere((path) => path === '/jobs' || path.startsWith('/jobs/') || path === '/audit_events');
    expect(history).toEqual(['List jobs', 'Show a job', 'List audit events']);
    // Their groups open on a click, as a reader would open them.
    for (const tag of ['jobs', 'admin']) await sidebar.getByText(tagDisplayName(tag), { exact: true }).click();
    for (const summary of history) await expect.poll(() => sidebar.getByText(summary, { exact: true }).count(), { message: summary }).toBeGreaterThan(0);
    await page.screenshot({ path: `${results}reference-history.png` });
  });

  it('lists the schedules, alerts, alert settings, silences, scans, capacity and report operations', async () => {
    const sidebar = page.locator('aside, nav').first();
    const watchTags = ['schedules', 'alerts', 'statistics'];
    const watch = summariesWhere((path, operation) => path.endsWith('/scans') || operation.tags?.some((tag) => watchTags.includes(tag)) === true);
    expect(watch).toHaveLength(18);
    for (const tag of watchTags) await sidebar.getByText(tagDisplayName(tag), { exact: true }).click();
    for (const summary of watch) await expect.poll(() => sidebar.getByText(summary, { exact: true }).count(), { message: summary }).toBeGreaterThan(0);
    await page.screenshot({ path: `${results}reference-watch.png` });
  });

  it('shows an operation with its parameters, responses, auth and its @dms/sdk sample', async () => {
    await page.locator('aside, nav').first().getByText('List NAS shares', { exact: true }).click();
    const section = page.locator('section', { has: page.getByRole('heading', { name: 'List NAS shares', exact: true }) }).first();
    await section.waitFor();
    await expect.poll(() => section.getByText('sort_by', { exact: true }).count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByText('dms.nasShares.listAll').count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByText('Authentication').count()).toBeGreaterThan(0);
    await page.screenshot({ path: `${results}reference-operation.png` });
  });

  it('shows the nas_share schema among the models', async () => {
    const sidebar = page.locator('aside, nav').first();
    await sidebar.getByText('Models', { exact: true }).click();
    await sidebar.getByText('nas_share', { exact: true }).click({ timeout: 5_000 });
    // The model opens where the sidebar took the page: its properties are on screen.
    for (const field of ['nas_id', 'pool_id', 'file_count', 'file_size_sum']) {
      await expect.poll(() => page.getByText(field, { exact: true }).filter({ visible: true }).count(), { message: field }).toBeGreaterThan(0);
    }
    await page.screenshot({ path: `${results}reference-nas-share-schema.png` });
  });

  it('needed nothing from another host, and broke no rule of its CSP', () => {
    expect(offHost).toEqual([]);
    expect(consoleProblems.filter((text) => /Content Security Policy|Refused to/i.test(text))).toEqual([]);
  });
});
