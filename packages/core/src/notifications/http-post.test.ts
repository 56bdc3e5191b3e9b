import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postTo } from '../adapters/notify/post-json.js';

/**
 * The POST every HTTP channel sends through (node:http with keep-alive,
 * docs/decisions/184-notifications-share-the-loop.md), against a real server on 127.0.0.1: the
 * rules fetch gave it before still hold.
 */
let server: Server;
let base = '';
let connections = 0;
const paths: string[] = [];
const routes: Record<string, (request: IncomingMessage, response: ServerResponse) => void> = {
  '/ok': (_request, response) => response.writeHead(204).end(),
  '/moved': (_request, response) => response.writeHead(302, { location: '/ok' }).end(),
  '/gone': (_request, response) => response.writeHead(410).end('channel removed'),
  '/long': (_request, response) => response.writeHead(500).end('x'.repeat(100_000)),
  '/long-ok': (_request, response) => response.writeHead(200).end('y'.repeat(100_000)),
  '/silent': () => {},
};

beforeAll(async () => {
  server = createServer((request, response) => {
    paths.push(request.url ?? '');
    request.resume();
    request.on('end', () => routes[request.url ?? '']?.(request, response));
  });
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const json = { 'content-type': 'application/json' };

describe('postTo', () => {
  it('sends one after the other on one kept-alive connection', async () => {
    const before = connections;
    for (let i = 0; i < 3; i += 1) expect(await postTo(`${base}/ok`, '{}', json, 5_000)).toEqual({ ok: true, status_code: 204, error: null });
    expect(connections - before).toBe(1);
  });

  it('follows no redirect: a 3xx is a failure', async () => {
    paths.length = 0;
    expect(await postTo(`${base}/moved`, '{}', json, 5_000)).toMatchObject({ ok: false, status_code: 302, error: 'HTTP 302' });
    expect(paths).toEqual(['/moved']);
  });

  it('says a 410 is gone, with the start of the answer', async () => {
    expect(await postTo(`${base}/gone`, '{}', json, 5_000)).toEqual({ ok: false, status_code: 410, error: 'HTTP 410: channel removed', gone: true });
  });

  it('reads at most 1 KiB of a long answer, a success or a failure', async () => {
    const failed = await postTo(`${base}/long`, '{}', json, 5_000);
    expect(failed).toMatchObject({ ok: false, status_code: 500 });
    expect(failed.error).toBe(`HTTP 500: ${'x'.repeat(200)}…`);
    expect(await postTo(`${base}/long-ok`, '{}', json, 5_000)).toEqual({ ok: true, status_code: 200, error: null });
    // the connection cut short is not used again: the next send still goes through
    expect(await postTo(`${base}/ok`, '{}', json, 5_000)).toMatchObject({ ok: true });
  });

  it('gives up on a receiver that does not answer within the timeout', async () => {
    expect(await postTo(`${base}/silent`, '{}', json, 200)).toEqual({ ok: false, status_code: null, error: 'no answer within 200 ms' });
  });

  it('refuses a URL that is not http or https before sending', async () => {
    expect(await postTo('ftp://127.0.0.1/x', '{}', json, 5_000)).toMatchObject({ ok: false, status_code: null, error: 'not an http or https URL (ftp:)' });
    expect(await postTo('not a url', '{}', json, 5_000)).toMatchObject({ ok: false, error: 'not a valid URL' });
  });

  it('says why a connection failed', async () => {
    const refused = await postTo('http://127.0.0.1:9/hook', '{}', json, 5_000);
    expect(refused).toMatchObject({ ok: false, status_code: null });
    expect(refused.error).toMatch(/ECONNREFUSED/);
  });
});
