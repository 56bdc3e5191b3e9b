import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRPCError } from '@trpc/server';
import { createLogger } from '@dms/http-api';
import type { AppCaller } from '../src/main/router/index.js';
import { EmbeddedRestServer } from '../src/main/rest-server.js';
import { adminPassword, openTestDesktop, type TestDesktop } from './test-desktop.js';

let t: TestDesktop;
let admin: AppCaller;

beforeAll(async () => {
  t = await openTestDesktop({ restServer: true });
  admin = t.caller();
  await admin.auth.signIn({ username: 'admin', password: adminPassword });
});
afterAll(async () => {
  await t?.close();
});

const basicAdmin = `Basic ${Buffer.from(`admin:${adminPassword}`).toString('base64')}`;
const loopback = { enabled: true, host: '127.0.0.1', port: 0 };

async function failure(call: Promise<unknown>): Promise<{ code: string; domainCode?: string; details?: unknown; message: string }> {
  const error = await call.then(
    () => expect.fail('expected the call to fail'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCError);
  const trpcError = error as TRPCError;
  const cause = trpcError.cause as { code?: string; details?: unknown } | undefined;
  return { code: trpcError.code, domainCode: cause?.code, details: cause?.details, message: trpcError.message };
}

/** What a new TCP connection to the URL's host and port ends with: `connected`, or the system's error code. */
async function tcpConnect(url: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    socket.once('connect', () => (socket.destroy(), resolve('connected')));
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

/** A port another program holds on 127.0.0.1. */
async function occupiedPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('no address');
  return { port: address.port, server };
}

describe('the embedded REST server through the router', () => {
  it('is off by default, with the default address', async () => {
    expect(await admin.restServer.status()).toEqual({
      state: 'stopped',
      url: null,
      lastError: null,
      settings: { enabled: false, host: '127.0.0.1', port: 8080 },
    });
  });

  it('serves the console’s own data over /api/v2 once enabled, and refuses connections once disabled', async () => {
    await admin.nas.create({ name: 'seen-over-rest', host: 'localhost', type: 'local' });
    const running = await admin.restServer.update(loopback);
    expect(running).toMatchObject({ state: 'running', lastError: null, settings: loopback });
    const url = running.url ?? expect.fail('no URL while running');
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v2$/);
    expect(await admin.restServer.status()).toEqual(running);

    const response = await fetch(`${url}/nas`, { headers: { authorization: basicAdmin } });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { nas: Array<{ name: string }> };
    expect(body.nas.map((nas) => nas.name)).toContain('seen-over-rest');
    // The same authentication as `dms serve`: no credentials, no data.
    expect((await fetch(`${url}/nas`)).status).toBe(401);

    const stopped = await admin.restServer.update({ ...loopback, enabled: false });
    expect(stopped).toMatchObject({ state: 'stopped', url: null, lastError: null });
    expect(await tcpConnect(url)).toBe('ECONNREFUSED');
  });

  it('fails with a clear message when the port is in use, and recovers on another port', async () => {
    const { port, server } = await occupiedPort();
    try {
      const failed = await admin.restServer.update({ ...loopback, port });
      expect(failed).toMatchObject({ state: 'failed', url: null, settings: { port } });
      expect(failed.lastError).toBe(`cannot listen on 127.0.0.1:${port}: the port is in use; stop what uses it or choose another port`);
    } finally {
      server.close();
    }
    expect(await admin.restServer.update(loopback)).toMatchObject({ state: 'running', lastError: null });
    await admin.restServer.update({ ...loopback, enabled: false });
  });

  it('answers field errors for bad settings and keeps the running ones', async () => {
    expect(await failure(admin.restServer.update({ enabled: true, host: '', port: 70_000 }))).toMatchObject({
      code: 'BAD_REQUEST',
      domainCode: 'validation',
      details: { host: expect.arrayContaining([{ error: 'blank' }]), port: [{ error: 'less_than_or_equal_to', count: 65_535 }] },
    });
    expect((await failure(admin.restServer.update({ enabled: true, host: 'not a host!', port: 8080 }))).details).toEqual({ host: [{ error: 'invalid' }] });
    expect(await admin.restServer.status()).toMatchObject({ state: 'stopped', settings: { enabled: false } });
  });

  it('keeps the settings in a file that survives a restart of the controller', async () => {
    await admin.restServer.update(loopback);
    expect(JSON.parse(readFileSync(t.settingsFile, 'utf8'))).toEqual({ restServer: loopback });
    // Written through a temp file and a rename: nothing is left beside it.
    expect(readdirSync(dirname(t.settingsFile)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    await t.restServer?.stop();

    const restarted = new EmbeddedRestServer({ core: t.dms.core, settingsFile: t.settingsFile, logger: createLogger('silent') });
    try {
      const status = await restarted.start();
      expect(status).toMatchObject({ state: 'running', settings: loopback });
      const url = status.url ?? expect.fail('no URL while running');
      expect((await fetch(`${url}/nas`, { headers: { authorization: basicAdmin } })).status).toBe(200);
    } finally {
      await restarted.stop();
    }
    await admin.restServer.update({ ...loopback, enabled: false });
  });

  it('starts with the defaults, and says why, when the settings file is broken', async () => {
    writeFileSync(t.settingsFile, '{"restServer": {"enabled": "yes"}}');
    const restarted = new EmbeddedRestServer({ core: t.dms.core, settingsFile: t.settingsFile, logger: createLogger('silent') });
    const status = await restarted.start();
    expect(status).toMatchObject({ state: 'stopped', settings: { enabled: false, host: '127.0.0.1', port: 8080 } });
    expect(status.lastError).toMatch(/does not hold valid settings .*the defaults are used/);
  });

  it('lets any signed-in user read the status but only an admin change it (FORBIDDEN)', async () => {
    await admin.users.create({ username: 'rest-operator', password: 'a long enough password' });
    const operator = t.caller();
    await operator.auth.signIn({ username: 'rest-operator', password: 'a long enough password' });
    expect((await operator.restServer.status()).state).toBe('stopped');
    expect(await failure(operator.restServer.update(loopback))).toMatchObject({ code: 'FORBIDDEN', domainCode: 'forbidden' });
    expect((await admin.restServer.status()).state).toBe('stopped');
    expect((await failure(t.caller().restServer.status())).code).toBe('UNAUTHORIZED');
  });
});

describe('a host without an embedded REST server', () => {
  it('answers that there is none (SERVICE_UNAVAILABLE)', async () => {
    const bare = await openTestDesktop();
    try {
      const caller = bare.caller();
      await caller.auth.signIn({ username: 'admin', password: adminPassword });
      expect(await failure(caller.restServer.status())).toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        message: expect.stringMatching(/no embedded REST server/),
      });
      expect((await failure(caller.restServer.update(loopback))).code).toBe('SERVICE_UNAVAILABLE');
    } finally {
      await bare.close();
    }
  });
});
