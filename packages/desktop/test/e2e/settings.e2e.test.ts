import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminPassword } from '../test-desktop.js';
import { chromiumMissing, openConsole, type ConsoleHarness } from './harness.js';

const skipReason = chromiumMissing('the Settings e2e test');

/** A port free on 127.0.0.1 right now (taken, read, released). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== 'object' || !address) throw new Error('no address');
  return address.port;
}

const basicAdmin = `Basic ${Buffer.from(`admin:${adminPassword}`).toString('base64')}`;

describe.skipIf(skipReason !== undefined)('Settings in headless Chromium', () => {
  let c: ConsoleHarness;
  let port: number;
  beforeAll(async () => {
    c = await openConsole();
    port = await freePort();
  }, 120_000);
  afterAll(async () => {
    await c?.close();
  });

  const restSection = () => c.page.getByRole('region', { name: 'Embedded REST server' });
  const hostsSection = () => c.page.getByRole('region', { name: 'Share-test allowed hosts' });

  it('turns the embedded REST server on, and curl-like clients reach it at the URL shown', async () => {
    await c.signIn();
    await c.open('Settings');
    const section = restSection();
    await section.getByRole('status').filter({ hasText: 'Off' }).first().waitFor();

    await section.getByLabel('Serve the REST API (/api/v2) of this instance').check();
    await section.getByLabel('Host').fill('127.0.0.1');
    await section.getByLabel('Port').fill(String(port));
    await section.getByRole('button', { name: 'Save' }).click();

    const url = `http://127.0.0.1:${port}/api/v2`;
    await section
      .getByRole('status')
      .filter({ hasText: `Running at ${url}` })
      .waitFor();
    await expect.poll(() => section.getByRole('button', { name: 'Copy REST server URL' }).isVisible()).toBe(true);

    const response = await fetch(`${url}/nas`, { headers: { authorization: basicAdmin } });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ count: 0, nas: [] });
  });

  it('shows the main process’s field error under the port', async () => {
    const section = restSection();
    await section.getByLabel('Port').fill('70000');
    await section.getByRole('button', { name: 'Save' }).click();
    await section.getByText('port must be between 0 and 65535').waitFor();
    expect(await section.getByLabel('Port').getAttribute('aria-invalid')).toBe('true');
    // Refused settings are not applied: the server still runs where it did.
    expect(await section.getByRole('status').filter({ hasText: 'Running at' }).textContent()).toContain(`127.0.0.1:${port}`);
  });

  it('saves an allowed host, and shows the core’s error for an invalid entry', async () => {
    const section = hostsSection();
    const hosts = section.getByLabel('Allowed hosts', { exact: true });
    await hosts.fill('nas.example.com\n\n 10.0.0.0/8 ');
    await section.getByRole('button', { name: 'Save allowed hosts' }).click();
    await section.getByRole('status').filter({ hasText: 'Saved: 2 allowed entries.' }).waitFor();
    expect(await hosts.inputValue()).toBe('nas.example.com\n10.0.0.0/8');
    // Stored by the core: a REST client of this instance reads the same list.
    expect(await fetchSettings(port)).toMatchObject({ share_test_allowed_hosts: ['nas.example.com', '10.0.0.0/8'] });

    await hosts.fill('nas.example.com\nbad host!');
    await section.getByRole('button', { name: 'Save allowed hosts' }).click();
    await section.getByText('“bad host!” must be a host name, an IP address or a CIDR block such as 10.0.0.0/8').waitFor();
    expect(await hosts.getAttribute('aria-invalid')).toBe('true');
    expect(await c.capture('settings')).toEqual([]);
  });

  it('keeps what was saved across screens, and the overview tells where the REST server runs', async () => {
    await c.open('Overview');
    const facts = c.page.getByRole('region', { name: 'Services' });
    await facts.getByText(`running at http://127.0.0.1:${port}/api/v2`).waitFor();
    expect(await facts.locator('dt').allTextContents()).toContain('REST server');

    await c.open('Settings');
    expect(await hostsSection().getByLabel('Allowed hosts', { exact: true }).inputValue()).toBe('nas.example.com\n10.0.0.0/8');
  });

  it('turns it off again: the status says so and the port refuses connections', async () => {
    const section = restSection();
    await section.getByLabel('Serve the REST API (/api/v2) of this instance').uncheck();
    await section.getByRole('button', { name: 'Save' }).click();
    await section.getByRole('status').filter({ hasText: 'Off' }).first().waitFor();
    const outcome = await fetch(`http://127.0.0.1:${port}/api/v2/nas`, { headers: { authorization: basicAdmin, connection: 'close' } }).then(
      (r) => `HTTP ${r.status}`,
      (error: unknown) => String((error as { cause?: { code?: string } }).cause?.code),
    );
    expect(outcome).toBe('ECONNREFUSED');
    expect(c.cspViolations).toEqual([]);
  });
});

/** The server settings as a REST client reads them (GET /api/v2/settings), through the embedded server. */
async function fetchSettings(port: number): Promise<unknown> {
  const response = await fetch(`http://127.0.0.1:${port}/api/v2/settings`, { headers: { authorization: basicAdmin } });
  return response.json();
}
