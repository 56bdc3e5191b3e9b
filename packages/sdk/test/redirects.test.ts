import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient, DmsRedirectError } from '../src/index.js';

interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
  body: string;
}

interface Recorder {
  origin: string;
  seen: Seen[];
  /** How the next requests are answered; the default answers 200 `{}`. */
  answer: (request: IncomingMessage, response: ServerResponse) => void;
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A real HTTP server on a port of its own (so an origin of its own) that records every request. */
async function recorder(): Promise<Recorder> {
  const ok = (_request: IncomingMessage, response: ServerResponse) => void response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  const self: Recorder = { origin: '', seen: [], answer: ok, close: async () => {} };
  const server: Server = createServer(async (request, response) => {
    const body = await readBody(request);
    self.seen.push({ method: request.method!, url: request.url!, authorization: request.headers.authorization, body });
    self.answer(request, response);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  self.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  self.close = () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
  return self;
}

const redirectTo = (status: number, location: (request: IncomingMessage) => string) => (request: IncomingMessage, response: ServerResponse) =>
  void response.writeHead(status, { location: location(request), 'content-length': '0' }).end();

describe('redirects (finding 20.12)', () => {
  let service: Recorder;
  let elsewhere: Recorder;
  const password = 'a-password-that-must-stay-home';
  const basic = `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;
  const client = () => createClient({ baseUrl: service.origin, auth: { basic: { username: 'admin', password } }, retry: { retries: 2, minDelayMs: 1 } });

  beforeAll(async () => {
    service = await recorder();
    elsewhere = await recorder();
  });
  afterEach(() => {
    service.seen.length = 0;
    elsewhere.seen.length = 0;
  });
  afterAll(async () => {
    await service?.close();
    await elsewhere?.close();
  });

  it.each([307, 308])('finding 20.12: a %i to another origin is not followed: the password in the body and the credential never reach it', async (status) => {
    service.answer = redirectTo(status, (request) => `${elsewhere.origin}${request.url!}`);
    const created = client().users.create({ username: 'bob', password: 'bobs-new-password', admin: false });
    const error = await created.then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(DmsRedirectError);
    expect(error).toMatchObject({ name: 'DmsRedirectError', status, reason: 'other_origin', method: 'POST', location: `${elsewhere.origin}/api/v2/users` });
    expect((error as Error).message).toContain('redirected to another origin');
    expect(service.seen.map((r) => r.body)).toEqual([expect.stringContaining('bobs-new-password')]);
    expect(elsewhere.seen).toEqual([]);
  });

  it('finding 20.12: a PUT with a share password, redirected by 308 to another origin, is neither followed nor retried', async () => {
    service.answer = redirectTo(308, () => `${elsewhere.origin}/collect`);
    await expect(client().nasShares.update(1, { password: 'share-secret' }, { nasId: 1 })).rejects.toBeInstanceOf(DmsRedirectError);
    expect(service.seen).toHaveLength(1);
    expect(elsewhere.seen).toEqual([]);
  });

  it('finding 20.12: a GET redirected to another origin does not carry the credential there', async () => {
    service.answer = redirectTo(302, () => `${elsewhere.origin}/api/v2/nas`);
    await expect(client().nas.list()).rejects.toMatchObject({ name: 'DmsRedirectError', status: 302, method: 'GET' });
    expect(service.seen[0]?.authorization).toBe(basic);
    expect(elsewhere.seen).toEqual([]);
  });

  it('a redirect within the origin is followed: a 308 keeps the method, body and credential; a 303 turns into a GET', async () => {
    service.answer = (request, response) => {
      if (request.url === '/api/v2/users') return redirectTo(308, () => '/moved/users')(request, response);
      if (request.url === '/api/v2/nas') return redirectTo(303, () => `${service.origin}/moved/nas`)(request, response);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"id":7}');
    };
    await expect(client().users.create({ username: 'carol', password: 'carols-password', admin: false })).resolves.toEqual({ id: 7 });
    expect(service.seen[1]).toMatchObject({ method: 'POST', url: '/moved/users', authorization: basic, body: expect.stringContaining('carols-password') });
    service.seen.length = 0;
    await client().nas.create({ name: 'n', host: 'localhost', type: 'local' });
    expect(service.seen[1]).toMatchObject({ method: 'GET', url: '/moved/nas', body: '' });
    expect(elsewhere.seen).toEqual([]);
  });

  it('stops after 5 redirects within the origin', async () => {
    service.answer = redirectTo(307, (request) => `/loop${request.url!}`);
    await expect(client().nas.list()).rejects.toMatchObject({ name: 'DmsRedirectError', reason: 'too_many' });
    expect(service.seen).toHaveLength(6);
  });
});
