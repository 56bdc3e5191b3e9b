import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../src/testing/test-app.js';
import { createMemoryRateLimiter } from '@dms/core/memory';

const basicOf = (username: string, password: string) => `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;

describe('hardening found in the OWASP API Top 10 review', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp({
      limits: {
        perCredential: createMemoryRateLimiter({ limit: 1000, windowSeconds: 60 }),
        perAddress: createMemoryRateLimiter({ limit: 1000, windowSeconds: 60 }),
        authFailures: createMemoryRateLimiter({ limit: 10, windowSeconds: 60 }),
      },
    });
    await t.core.users.add({ username: 'plain', password: 'plain-password-1' });
  });
  afterEach(() => t.close());

  it('API5: a user who is not an admin cannot manage users or change settings, but can change its own data', async () => {
    const plain = basicOf('plain', 'plain-password-1');
    expect((await t.call('GET', '/api/v2/nas_shares', { auth: plain })).status).toBe(200);
    expect((await t.call('POST', '/api/v2/users', { auth: plain, body: { username: 'mallory', password: 'mallory-pass-1', admin: true } })).status).toBe(403);
    expect((await t.call('PUT', '/api/v2/users/admin', { auth: plain, body: { password: 'taken-over-1' } })).status).toBe(403);
    expect((await t.call('DELETE', '/api/v2/users/admin', { auth: plain })).status).toBe(403);
    expect((await t.call('PUT', '/api/v2/settings', { auth: plain, body: { jwt_enabled: true } })).status).toBe(403);
    expect((await t.call('PUT', '/api/v2/settings', { auth: t.basic, body: { jwt_enabled: true } })).status).toBe(200);
  });

  it('API2: a JWT stops working when its user’s password changes', async () => {
    await t.call('PUT', '/api/v2/settings', { auth: t.basic, body: { jwt_enabled: true } });
    const login = await t.call('POST', '/api/v2/auth/login', { body: { username: 'plain', password: 'plain-password-1' } });
    const { token } = (await login.json()) as { token: string };
    expect((await t.call('GET', '/api/v2/nas', { auth: `Bearer ${token}` })).status).toBe(200);
    expect((await t.call('PUT', '/api/v2/users/plain', { auth: t.basic, body: { password: 'plain-password-2' } })).status).toBe(200);
    expect((await t.call('GET', '/api/v2/nas', { auth: `Bearer ${token}` })).status).toBe(401);
  });

  it('API4: ten bad bearer values from an address do not lock out a valid key from it', async () => {
    const key = await t.bearer('nas/index');
    for (let i = 0; i < 12; i++) {
      const status = (await t.call('GET', '/api/v2/nas', { auth: `Bearer dms_guess${i}` })).status;
      expect(status).toBe(i < 10 ? 401 : 429);
    }
    expect((await t.call('GET', '/api/v2/nas', { auth: key })).status).toBe(200);
  });

  it('API8: the opaque null origin cannot be allowed by a CORS rule', async () => {
    const res = await t.call('POST', '/api/v2/cors_rules', { auth: t.basic, body: { origins: ['null'], methods: ['GET'] } });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { details: Record<string, unknown> }).details).toHaveProperty(['origins.0']);
  });
});
