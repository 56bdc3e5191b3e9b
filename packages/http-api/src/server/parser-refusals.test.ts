import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawExchange, type RawResponse } from '../testing/raw-http.js';
import { readConfig } from './config.js';
import { overflowInRequestLine } from './parser-refusals.js';
import { startServer, type RunningServer } from './serve.js';

/** The answer a refusal must be: a model_error, a request id, and the connection closed after it. */
function expectRefusal(responses: RawResponse[], status: number): { details: Record<string, unknown>; messages: string[] } {
  expect(responses.map((r) => r.status)).toEqual([status]);
  const [answer] = responses as [RawResponse];
  expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  expect(answer.headers['connection']).toBe('close');
  expect(answer.headers['content-type']).toBe('application/json');
  const body = JSON.parse(answer.body) as { details: Record<string, unknown>; messages: string[] };
  expect(body).toEqual({ details: expect.any(Object), messages: [expect.any(String)] });
  return body;
}

describe('what the HTTP parser refuses is answered as the app answers (issue 21 item 7)', () => {
  let dir: string;
  let server: RunningServer;
  let port: number;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dms-refusals-'));
    server = await startServer(
      readConfig({ DMS_DATA_DIR: dir, DMS_PORT: '0', DMS_ADMIN_PASSWORD: 'refusals-password', DMS_LOG_LEVEL: 'silent', DMS_HEADERS_TIMEOUT_MS: '300' }),
    );
    port = Number(new URL(server.url).port);
  });
  afterAll(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('issue 21 item 7: a URL over 16 KiB is 414 (not a bare 431) with a model_error body, an X-Request-Id and Connection: close', async () => {
    const { responses, how } = await rawExchange(port, [`GET /api/v2/nas?name=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`]);
    const body = expectRefusal(responses, 414);
    expect(body.details).toEqual({ url: [{ error: 'too_long', count: 16_384 }] });
    expect(how).toBe('end');
  });

  it('issue 21 item 7: a path between 8 KiB and the 16 KiB the parser holds is 414 from the app, with the same shape', async () => {
    const { responses } = await rawExchange(port, [`GET /api/v2/${'a'.repeat(12_000)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`]);
    expect(responses.map((r) => r.status)).toEqual([414]);
    expect(responses[0]!.headers['x-request-id']).toMatch(/\S/);
    expect(JSON.parse(responses[0]!.body)).toMatchObject({ details: { path: [{ error: 'too_long', count: 8192 }] } });
  });

  it('issue 21 item 7: headers over 16 KiB are 431 with a model_error body and an X-Request-Id', async () => {
    const { responses } = await rawExchange(port, [`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`]);
    expect(expectRefusal(responses, 431).details).toEqual({ headers: [{ error: 'too_long', count: 16_384 }] });
  });

  it('issue 21 item 7: a long URL after a kept-alive request is 414 too, after that request is answered', async () => {
    const { responses } = await rawExchange(port, [`GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`]);
    expect(responses.map((r) => r.status)).toEqual([200, 414]);
    expect(responses[1]!.headers['x-request-id']).toMatch(/\S/);
  });

  it.each([
    ['a bad method', 'G@T / HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a bad header name', 'GET / HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n'],
    ['Content-Length with Transfer-Encoding', 'POST /api/v2/nas HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n'],
  ])('issue 21 item 7: %s is 400 with a model_error body and an X-Request-Id', async (_what, request) => {
    const body = expectRefusal((await rawExchange(port, [request])).responses, 400);
    expect(body.details).toEqual({ request: [{ error: 'invalid' }] });
    expect(body.messages[0]).toMatch(/^malformed HTTP request: \S/);
  });

  it('issue 21 item 7: headers not finished within DMS_HEADERS_TIMEOUT_MS are 408, within the timeout plus a tenth', async () => {
    const { responses, ms } = await rawExchange(port, ['GET /healthz HTTP/1.1\r\nHost: x\r\n']);
    expect(expectRefusal(responses, 408).messages[0]).toContain('300 ms');
    expect(ms).toBeGreaterThanOrEqual(290);
    // 300 ms, checked every 30 ms; the rest is scheduling slack on a busy machine.
    expect(ms).toBeLessThan(1_500);
  });
});

describe('telling an over-long request line from over-large headers', () => {
  const decide = (text: string) => overflowInRequestLine(Buffer.from(text, 'latin1'), text.length);
  it('reads the refused chunk', () => {
    expect(decide('GET /aaaaaaaa')).toBe(true);
    expect(decide('GET /x HTTP/1.1\r\nX-Big: bbbb')).toBe(false);
    expect(decide('GET /x HTTP/1.1\r\nHost: x\r\n\r\nGET /aaaa')).toBe(true);
    expect(decide('GET /x HTTP/1.1\n\nPOST /aaaa')).toBe(true);
    // A piece of a line split over reads: where it belongs cannot be seen.
    expect(decide('aaaaaaaaaaaa')).toBe(false);
    expect(overflowInRequestLine(undefined, undefined)).toBe(false);
  });
});
