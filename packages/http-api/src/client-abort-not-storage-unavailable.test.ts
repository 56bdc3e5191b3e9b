import { randomBytes } from 'node:crypto';
import { connect, type AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { isStorageUnavailable, systemPrincipal } from '@dms/core';
import { createAesGcmSecretBox, createCore, type Core, type Storage } from '@dms/core/runtime';
import { openSqliteStorage } from '@dms/core/sqlite';
import { createShareDriverRegistry } from '@dms/core/drivers';
import { createApp } from './app.js';
import { createLogger } from './http/logger.js';
import { toDomainError } from './http/error-response.js';
import { ClientAbortError } from './http/json-body.js';
import type { Metrics } from './metrics/metrics.js';
import { createMemoryRateLimiter } from '@dms/core/memory';

/**
 * Finding 10: a client that drops its connection while the request body is read raised
 * ECONNRESET, which was taken for a storage outage: a 503 in the log and the metrics. Over a
 * real node server, such a request must be a 499 (info, never error) and no 5xx, while a
 * storage ECONNRESET on a request that arrived whole stays a 503.
 */

interface LogLine {
  level: number;
  msg: string;
  status?: number;
  path?: string;
}

const path = '/api/v2/snmp/server_configuration';
let storage: Storage;
let core: Core;
let metrics: Metrics;
let server: ServerType;
let port: number;
let bearer: string;
const lines: LogLine[] = [];
let onLine: (line: LogLine) => void = () => {};
let onHandling: () => void = () => {};

/** Resolves with the access log line of the next request answered. */
function nextRequestLine(): Promise<LogLine> {
  return new Promise((resolve) => {
    onLine = (line) => {
      if (line.msg === 'request') resolve(line);
    };
  });
}

/** `dms_http_requests_total` series of `path`, as `status → count`. */
async function requestCounts(): Promise<Record<string, number>> {
  const text = await metrics.registry.metrics();
  const counts: Record<string, number> = {};
  for (const match of text.matchAll(/^dms_http_requests_total\{method="(?:GET|PUT)",route="([^"]+)",status="(\d+)"\} (\d+)$/gm)) {
    if (match[1] === path) counts[match[2]!] = (counts[match[2]!] ?? 0) + Number(match[3]);
  }
  return counts;
}

beforeAll(async () => {
  const secrets = createAesGcmSecretBox(randomBytes(32));
  storage = openSqliteStorage({ file: ':memory:', secrets });
  await storage.migrate();
  const big = createMemoryRateLimiter({ limit: 1_000_000, windowSeconds: 60 });
  core = createCore({
    storage,
    secrets,
    drivers: createShareDriverRegistry({ localRoots: [] }),
    limits: { perCredential: big, perAddress: big, authFailures: big },
  });
  bearer = `Bearer ${(await core.apiKeys.create(systemPrincipal, { name: 'abort', api_key_scopes: [{ controller: '*', action: '*' }] })).key}`;
  const logger = createLogger('info', {
    write: (text: string) => {
      const line = JSON.parse(text) as LogLine;
      lines.push(line);
      onLine(line);
    },
  });
  const created = createApp({ core, logger });
  metrics = created.metrics;
  server = await new Promise<ServerType>((resolve) => {
    const started = serve(
      {
        // Tells the test that the request is in the app, so the socket is cut mid-body, not before.
        fetch: (request, env) => {
          onHandling();
          return created.app.fetch(request, env);
        },
        hostname: '127.0.0.1',
        port: 0,
      },
      () => resolve(started),
    );
  });
  port = (server.address() as AddressInfo).port;
});
afterEach(() => vi.restoreAllMocks());
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await storage.close();
});

describe('finding 10: a client abort is not a storage outage', () => {
  it('finding 10: a PUT whose client drops the connection mid-body is logged as 499 at info and counted as no 5xx', async () => {
    const before = await requestCounts();
    const handling = new Promise<void>((resolve) => {
      onHandling = resolve;
    });
    const logged = nextRequestLine();
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    socket.write(
      `PUT ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${bearer}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"locatio`,
    );
    await handling;
    socket.destroy();

    const line = await logged;
    expect(line).toMatchObject({ msg: 'request', path, status: 499 });
    expect(line.level).toBeLessThanOrEqual(40);
    expect(
      lines.filter((entry) => entry.level >= 50),
      'no error line',
    ).toEqual([]);
    const after = await requestCounts();
    expect((after['499'] ?? 0) - (before['499'] ?? 0)).toBe(1);
    expect(Object.keys(after).filter((status) => status.startsWith('5'))).toEqual([]);
    // Nothing of the broken body was applied.
    expect((await storage.snmpConfig.get()).location).toBe('');
  });

  it('finding 10: a storage ECONNRESET on a request that arrived whole still answers and counts 503', async () => {
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    // The update and its audit event are written in one transaction: the connection fails there.
    vi.spyOn(storage, 'transaction').mockRejectedValueOnce(reset);
    const before = await requestCounts();
    const logged = nextRequestLine();
    const response = await fetch(`http://127.0.0.1:${port}${path}`, {
      method: 'PUT',
      headers: { authorization: bearer, 'content-type': 'application/json' },
      body: JSON.stringify({ location: 'rack 1' }),
    });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect((await logged).status).toBe(503);
    expect(((await requestCounts())['503'] ?? 0) - (before['503'] ?? 0)).toBe(1);
  });

  it('finding 10: the body reader marks its failures as client aborts, which never map to 503', () => {
    const reset = Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
    expect(isStorageUnavailable(reset)).toBe(true);
    expect(toDomainError(reset).code).toBe('unavailable');
    const abort = toDomainError(new ClientAbortError(reset));
    expect(abort.code).toBe('bad_request');
    expect(abort.retryAfter).toBeUndefined();
  });
});
