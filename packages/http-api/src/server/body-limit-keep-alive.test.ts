import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawExchange } from '../testing/raw-http.js';
import { readConfig } from './config.js';
import { startServer, type RunningServer } from './serve.js';

describe('a 413 on a kept-alive connection (issue 21 item 6)', () => {
  let dir: string;
  let server: RunningServer;
  let port: number;
  const auth = `Basic ${Buffer.from('admin:body-limit-password').toString('base64')}`;
  const oversized = Buffer.alloc(2 * 1024 * 1024, 'a');
  const createNas = (name: string) => {
    const body = JSON.stringify({ name, host: 'localhost', type: 'local' });
    return `POST /api/v2/nas HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
  };
  const nasNamed = async (name: string) => {
    const response = await fetch(`${server.url}/nas?name=${name}`, { headers: { authorization: auth } });
    return ((await response.json()) as { count: number }).count;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dms-body-limit-'));
    server = await startServer(readConfig({ DMS_DATA_DIR: dir, DMS_PORT: '0', DMS_ADMIN_PASSWORD: 'body-limit-password', DMS_LOG_LEVEL: 'silent' }));
    port = Number(new URL(server.url).port);
  });
  afterAll(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const head = (framing: string) => `POST /api/v2/nas HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nContent-Type: application/json\r\n${framing}\r\n`;
  const sends: Record<string, (next: string) => Array<string | Buffer>> = {
    'Content-Length': (next) => [head(`Content-Length: ${oversized.length}\r\n`), oversized, next],
    chunked: (next) => [head('Transfer-Encoding: chunked\r\n'), `${oversized.length.toString(16)}\r\n`, oversized, '\r\n0\r\n\r\n', next],
  };

  it.each(Object.keys(sends))(
    'issue 21 item 6: an oversized body (%s) gets a 413 that says Connection: close, the connection then closes cleanly, and the request after it is not applied',
    async (framing) => {
      const name = `after-413-${framing.toLowerCase()}`;
      // Several times: a close that resets the connection loses the 413 only now and then.
      for (let round = 0; round < 3; round++) {
        const { responses, how } = await rawExchange(port, sends[framing]!(createNas(name)));
        expect(responses.map((r) => [r.status, r.headers['connection']])).toEqual([[413, 'close']]);
        expect(responses[0]!.headers['x-request-id']).toMatch(/\S/);
        expect(JSON.parse(responses[0]!.body)).toMatchObject({ details: { body: [{ error: 'too_long', count: 1024 * 1024 }] } });
        expect(how).toBe('end');
      }
      // Not applied: after a Connection: close answer the client knows to send it again.
      expect(await nasNamed(name)).toBe(0);
    },
  );

  it('issue 21 item 6: a body within the limit keeps the connection, and the next request on it is answered', async () => {
    const { responses } = await rawExchange(port, [createNas('kept-1'), createNas('kept-2').replace('Host: x\r\n', 'Host: x\r\nConnection: close\r\n')]);
    expect(responses.map((r) => r.status)).toEqual([201, 201]);
    expect(await nasNamed('kept-2')).toBe(1);
  });
});
