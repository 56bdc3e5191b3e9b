import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryRateLimiter } from '@dms/core/memory';
import { createServer } from 'node:net';
import { createClient, DmsApiError, DmsNetworkError, isDmsApiError, type DmsClient, type NasCreate } from '../src/index.js';
import { apiError, DmsJobFailedError, parseRetryAfter } from '../src/errors.js';
import { startDms, type DmsServer } from './support/dms-server.js';
import { useDms } from './support/fixture.js';
import { checkResponses } from './support/response-validator.js';
import { startFaultProxy, type FaultProxy } from './support/fault-proxy.js';

/**
 * The SDK's errors, in one file: every error answer of a real server as a typed error, retries
 * included, then (at the end, no server needed) how DmsApiError and DmsJobFailedError read an answer.
 */
const t = useDms();

/** The URL of a port on 127.0.0.1 that a server held and has closed: nothing listens there now. */
async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  return `http://127.0.0.1:${port}`;
}

async function failureOf(promise: Promise<unknown>): Promise<DmsApiError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(DmsApiError);
  expect(isDmsApiError(error)).toBe(true);
  expect((error as Error).name).toBe('DmsApiError');
  return error as DmsApiError;
}

describe('error answers as typed errors', () => {
  it('401: a bad credential', async () => {
    const error = await failureOf(t.client({ auth: { basic: { username: 'admin', password: 'wrong-password' } } }).nas.list());
    expect(error).toMatchObject({ status: 401, kind: 'unauthorized', method: 'GET' });
    expect(error.messages.length).toBeGreaterThan(0);
    expect(error.requestId).toMatch(/\S/);
    expect(error.url).toBe(`${t.server.url}/api/v2/nas`);
  });

  it('403: a key without the scope', async () => {
    const { key } = await t.dms.apiKeys.create({ name: 'nas reader', api_key_scopes: [{ controller: 'nas', action: 'index' }] });
    const reader = t.client({ auth: { apiKey: key } });
    await reader.nas.list();
    const error = await failureOf(reader.pools.list());
    expect(error).toMatchObject({ status: 403, kind: 'forbidden', details: { scope: [{ error: 'forbidden', value: 'pools / index' }] } });
  });

  it('404: an unknown id, with a not_found detail', async () => {
    const error = await failureOf(t.dms.nas.get(987654));
    expect(error).toMatchObject({ status: 404, kind: 'not_found', details: { nas_id: [{ error: 'not_found' }] } });
    await expect(t.dms.nasShares.get(1, { nasId: 987654 })).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('409: a taken name, and deleting a NAS that has shares', async () => {
    const nas = await t.dms.nas.create({ name: 'nas-taken', host: 'localhost', type: 'local' });
    const taken = await failureOf(t.dms.nas.create({ name: 'nas-taken', host: 'localhost', type: 'local' }));
    expect(taken).toMatchObject({ status: 409, kind: 'conflict', details: { name: [{ error: 'taken', value: 'nas-taken' }] } });
    await t.dms.nasShares.create(nas.id, { name: 'inside', path: 'inside' });
    expect(await failureOf(t.dms.nas.delete(nas.id))).toMatchObject({ status: 409, kind: 'conflict' });
  });

  it('422: an invalid field, and an unknown one that slipped past the types', async () => {
    const nas = await t.dms.nas.create({ name: 'nas-invalid', host: 'localhost', type: 'local' });
    const invalid = await failureOf(t.dms.nasShares.create(nas.id, { name: 'bad', path: 'bad', options: 'has space' }));
    expect(invalid).toMatchObject({ status: 422, kind: 'validation', details: { options: [{ error: 'invalid' }] } });
    const typo = { name: 'nas-typo', host: 'localhost', type: 'local', hots: 'x' } as NasCreate;
    const unknown = await failureOf(t.dms.nas.create(typo));
    expect(unknown).toMatchObject({ status: 422, details: { hots: [{ error: 'unknown' }] } });
  });

  it('400: a bad list parameter is not retried', async () => {
    const before = t.responses.checked.length;
    expect(await failureOf(t.dms.nas.list({ limit: 1000 }))).toMatchObject({ status: 400, kind: 'bad_request', details: { limit: expect.any(Array) } });
    expect(t.responses.checked.length - before).toBe(1);
  });
});

describe('429: retried after Retry-After, on a server with a tight rate limit', () => {
  let server: DmsServer;
  let client: DmsClient;
  const responses = checkResponses();
  beforeAll(async () => {
    // Three requests a second per credential: the fourth is 429 with Retry-After: 1.
    const generous = () => createMemoryRateLimiter({ limit: 1_000_000, windowSeconds: 60 });
    server = await startDms({
      limits: { perCredential: createMemoryRateLimiter({ limit: 3, windowSeconds: 1 }), perAddress: generous(), authFailures: generous() },
    });
    // A key without an owner user: a user's key would share its owner's budget (finding 20.8).
    const key = await server.systemKey('limited');
    client = createClient({ baseUrl: server.url, auth: { apiKey: key }, fetch: responses.fetch, retry: { retries: 3, minDelayMs: 50 } });
  });
  afterAll(() => server.close());

  it('waits out the window and succeeds; a POST is never retried', async () => {
    for (let i = 0; i < 3; i++) await client.nas.list();
    const started = Date.now();
    expect(await client.nas.list()).toMatchObject({ count: 0 });
    expect(responses.checked.slice(3, 5)).toEqual(['GET /nas 429', 'GET /nas 200']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);

    for (let i = 0; i < 2; i++) await client.nas.list();
    const rejected = await failureOf(client.nas.create({ name: 'nas-limited', host: 'localhost', type: 'local' }));
    expect(rejected).toMatchObject({ status: 429, kind: 'rate_limited', retryAfter: 1, details: { rate_limit: expect.any(Array) } });
    expect(responses.checked.at(-1)).toBe('POST /nas 429');
    expect(responses.failures).toEqual([]);
  });
});

describe('503, timeouts and network errors, through a proxy', () => {
  let proxy: FaultProxy;
  let key: string;
  const responses = checkResponses({ gatewayStatuses: [502, 504] });
  const through = (options: { retry?: false | { retries?: number; minDelayMs?: number }; timeoutMs?: number } = {}) =>
    createClient({ baseUrl: proxy.url, auth: { apiKey: key }, fetch: responses.fetch, ...options });
  beforeAll(async () => {
    proxy = await startFaultProxy(t.server.url);
    ({ key } = await t.admin.apiKeys.create({ name: 'proxied', api_key_scopes: [{ controller: '*', action: '*' }] }));
  });
  afterAll(() => proxy.close());

  it('retries a GET after a 503 with Retry-After: 1, then answers from the server', async () => {
    proxy.faults.push({ status: 503, retryAfter: '1' });
    const started = Date.now();
    expect(await through().nas.list()).toMatchObject({ count: expect.any(Number) });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(responses.checked.slice(-2)).toEqual(['GET /nas 503', 'GET /nas 200']);
  });

  it('retries a PUT after 502 and 504 with backoff, never a POST', async () => {
    const nas = await t.dms.nas.create({ name: 'nas-proxied', host: 'localhost', type: 'local' });
    proxy.faults.push({ status: 502 }, { status: 504 });
    expect(await through({ retry: { minDelayMs: 10 } }).nas.update(nas.id, { comment: 'through' })).toMatchObject({ comment: 'through' });
    expect(proxy.requests.slice(-3)).toEqual(Array(3).fill(`PUT /api/v2/nas/${nas.id}`));

    proxy.faults.push({ status: 503, retryAfter: '1' });
    const refused = await failureOf(through().nas.create({ name: 'nas-never', host: 'localhost', type: 'local' }));
    expect(refused).toMatchObject({ status: 503, kind: 'unavailable', retryAfter: 1, requestId: 'proxy' });
    expect(proxy.requests.filter((request) => request === 'POST /api/v2/nas')).toHaveLength(1);
  });

  it('gives up when retries run out, and does not retry with retry: false', async () => {
    proxy.faults.push({ status: 503 }, { status: 503 }, { status: 503 });
    expect(await failureOf(through({ retry: { retries: 2, minDelayMs: 10 } }).nas.list())).toMatchObject({ status: 503 });
    proxy.faults.length = 0;
    proxy.faults.push({ status: 503 });
    const before = proxy.requests.length;
    expect(await failureOf(through({ retry: false }).nas.list())).toMatchObject({ status: 503 });
    expect(proxy.requests.length - before).toBe(1);
  });

  it('aborts while waiting to retry', async () => {
    proxy.faults.push({ status: 503, retryAfter: '5' });
    const started = Date.now();
    await expect(through().nas.list({ signal: AbortSignal.timeout(200) })).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(Date.now() - started).toBeLessThan(2_000);
    proxy.faults.length = 0;
  });

  it('times an attempt out with timeoutMs, and retries it', async () => {
    proxy.faults.push('hang');
    const client = through({ timeoutMs: 200, retry: { retries: 1, minDelayMs: 10 } });
    expect(await client.nas.list()).toMatchObject({ count: expect.any(Number) });
    proxy.faults.push('hang');
    await expect(through({ timeoutMs: 200, retry: false }).nas.list()).rejects.toMatchObject({ name: 'TimeoutError' });
  });

  it('issue 45: a server that is down throws DmsNetworkError naming the URL and the cause, after the retries of a GET', async () => {
    const baseUrl = await closedPort();
    let attempts = 0;
    const unreachable = createClient({
      baseUrl,
      auth: { apiKey: key },
      retry: { retries: 2, minDelayMs: 10 },
      fetch: (input, init) => {
        attempts++;
        return fetch(input, init);
      },
    });
    const error = await unreachable.nas.list().catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(DmsNetworkError);
    expect(attempts).toBe(3);
    const network = error as DmsNetworkError;
    expect(network).toMatchObject({ name: 'DmsNetworkError', method: 'GET', url: `${baseUrl}/api/v2/nas` });
    expect(network.cause).toBeInstanceOf(TypeError);
    expect(network.message).toContain(`${baseUrl}/api/v2/nas`);
    expect(network.message).toContain('ECONNREFUSED');
  });

  it('issue 45: a POST to a server that is down is tried once, then throws DmsNetworkError', async () => {
    const baseUrl = await closedPort();
    let attempts = 0;
    const unreachable = createClient({
      baseUrl,
      auth: { apiKey: key },
      retry: { retries: 2, minDelayMs: 10 },
      fetch: (input, init) => {
        attempts++;
        return fetch(input, init);
      },
    });
    await expect(unreachable.nas.create({ name: 'nowhere', host: 'localhost', type: 'local' })).rejects.toMatchObject({
      name: 'DmsNetworkError',
      method: 'POST',
      url: `${baseUrl}/api/v2/nas`,
    });
    expect(attempts).toBe(1);
  });

  it('validated every answer of the proxy tests', () => {
    expect(responses.failures).toEqual([]);
    expect(responses.checked.length).toBeGreaterThan(8);
  });
});

describe('DmsApiError', () => {
  it('reads a model_error answer: status, kind, details, messages, request id, Retry-After', () => {
    const response = new Response('', { status: 429, headers: { 'x-request-id': 'req-1', 'retry-after': '7' } });
    const error = apiError('GET', response, { details: { rate_limit: [{ error: 'invalid', count: 3 }] }, messages: ['rate limit exceeded'] });
    expect(error).toBeInstanceOf(DmsApiError);
    expect(error).toBeInstanceOf(Error);
    expect(isDmsApiError(error)).toBe(true);
    expect(error).toMatchObject({
      name: 'DmsApiError',
      status: 429,
      kind: 'rate_limited',
      requestId: 'req-1',
      retryAfter: 7,
      messages: ['rate limit exceeded'],
    });
    expect(error.details['rate_limit']).toEqual([{ error: 'invalid', count: 3 }]);
  });

  it('keeps a body that is not a model_error as its message', () => {
    const error = apiError('PUT', new Response('', { status: 502 }), 'Bad Gateway');
    expect(error).toMatchObject({ status: 502, kind: 'server', messages: ['Bad Gateway'], details: {}, retryAfter: undefined });
  });

  it('is recognised by name when the class is another copy', () => {
    const foreign = Object.assign(new Error('x'), { name: 'DmsApiError' });
    expect(isDmsApiError(foreign)).toBe(true);
    expect(isDmsApiError(new Error('x'))).toBe(false);
  });

  it('parses Retry-After as seconds or as an HTTP date', () => {
    expect(parseRetryAfter('3')).toBe(3);
    expect(parseRetryAfter(new Date(Date.now() + 10_000).toUTCString())).toBeGreaterThanOrEqual(9);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });
});

describe('DmsJobFailedError', () => {
  it('carries the failed job, its message and its steps', () => {
    const job = {
      job_id: 'j1',
      status: 'failed' as const,
      progress: 1,
      total: 2,
      message: 'path not found',
      steps: [{ name: 'open_path', outcome: 'failed' as const, duration_ms: 1 }],
    };
    const error = new DmsJobFailedError(job);
    expect(error).toMatchObject({ name: 'DmsJobFailedError', jobId: 'j1', job, steps: job.steps, message: 'job j1 failed: path not found' });
  });
});
