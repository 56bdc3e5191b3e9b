import { afterEach, describe, expect, it } from 'vitest';
import { serve, type ServerType } from '@hono/node-server';
import { createTestApp, type TestApp } from '../../src/testing/test-app.js';
import { createMemoryRateLimiter } from '@dms/core/memory';
import { countingHasher } from '@dms/core/testing';

const basicOf = (username: string, password: string) => `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;

describe('security review: throttling', () => {
  let t: TestApp | undefined;
  let server: ServerType | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await t?.close();
    server = undefined;
  });

  it('finding 5: Basic guesses beyond the address budget are refused before any password check', async () => {
    const hasher = countingHasher();
    t = await createTestApp({
      hasher,
      limits: {
        perCredential: createMemoryRateLimiter({ limit: 1000, windowSeconds: 60 }),
        perAddress: createMemoryRateLimiter({ limit: 5, windowSeconds: 60 }),
        authFailures: createMemoryRateLimiter({ limit: 10, windowSeconds: 60 }),
      },
    });
    // A verified credential is remembered: it costs the address nothing afterwards.
    expect((await t.call('GET', '/api/v2/nas', { auth: t.basic })).status).toBe(200);
    const checksBefore = hasher.verifications;
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await t.call('GET', '/api/v2/nas', { auth: basicOf(`guess${i}`, 'wrong-password') })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429, 429, 429]);
    expect(hasher.verifications - checksBefore).toBe(4);
    expect((await t.call('GET', '/api/v2/nas', { auth: t.basic })).status).toBe(200);
  });

  it('finding 12: behind a trusted proxy, guesses lock a user out from the forwarded address only', async () => {
    t = await createTestApp({
      trustedProxies: ['127.0.0.1', '::1'],
      limits: {
        perCredential: createMemoryRateLimiter({ limit: 1000, windowSeconds: 60 }),
        perAddress: createMemoryRateLimiter({ limit: 1000, windowSeconds: 60 }),
        authFailures: createMemoryRateLimiter({ limit: 10, windowSeconds: 60 }),
      },
    });
    const app = t.app;
    const url = await new Promise<string>((resolve) => {
      server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => resolve(`http://127.0.0.1:${info.port}/api/v2/nas`));
    });
    const get = (auth: string, forwardedFor: string) =>
      fetch(url, { headers: { authorization: auth, 'x-forwarded-for': forwardedFor } }).then((res) => res.status);
    const attacker = '198.51.100.1';
    for (let i = 0; i < 10; i++) expect(await get(basicOf('admin', `wrong-${i}`), attacker)).toBe(401);
    expect(await get(t.basic, attacker)).toBe(429);
    expect(await get(t.basic, '203.0.113.5, 127.0.0.1')).toBe(200);
    // A client cannot pick its address by sending the header itself: the proxy appends the real one.
    expect(await get(t.basic, `${attacker}, 198.51.100.77`)).toBe(200);
    expect(await get(t.basic, `203.0.113.5, ${attacker}`)).toBe(429);
  });
});
