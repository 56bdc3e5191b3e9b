import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemPrincipal, type AuditEvent } from '@dms/core';
import { openDms, type Dms } from '@dms/core/runtime';
import { createMemoryRateLimiter } from '@dms/core/memory';
import { createApp } from '../../src/app.js';
import { createLogger } from '../../src/http/logger.js';
import { createTestApp, onlyOn, type TestApp } from '../../src/testing/test-app.js';
import { addSession, addTotpUser, addUser, readJson, totpCodeAt } from '../../src/testing/fixtures.js';

/**
 * Issue 46 through REST (docs/decisions/178-totp-second-factor.md, docs/decisions/179-sessions.md):
 * TOTP turned on and off, a sign-in that asks for the code, Basic refused to a TOTP user, and
 * sessions listed and ended, here and on a second replica of the same database.
 */
const basicOf = (username: string, password: string) => `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
type Problem = { details: Record<string, Array<{ error: string }>>; messages: string[] };

async function eventOf(t: TestApp, res: Response, action: string): Promise<AuditEvent | undefined> {
  const { audit_events } = await t.core.auditEvents.list(systemPrincipal, { sort_by: ['id:desc'], limit: ['20'] });
  return audit_events.find((event) => event.action === action && event.request_id === res.headers.get('x-request-id'));
}

describe('TOTP and sessions through REST', () => {
  let t: TestApp;
  let now: Date;
  beforeEach(async () => {
    now = new Date();
    t = await createTestApp({ clock: () => now });
    await t.core.settings.update(systemPrincipal, { jwt_enabled: true });
  });
  afterEach(() => t.close());

  const login = (body: Record<string, unknown>) => t.call('POST', '/api/v2/auth/login', { body, headers: { 'user-agent': 'route-test/1.0' } });

  it('a user turns TOTP on with a code computed from the answered secret; Basic is refused after; the login asks for the code', async () => {
    const user = await addUser(t, { password: 'user-password-1' });
    const basic = basicOf(user.username, 'user-password-1');
    const enrolled = await t.call('POST', '/api/v2/auth/totp', { auth: basic });
    expect(enrolled.status).toBe(200);
    const { secret, otpauth_uri } = await readJson<{ secret: string; otpauth_uri: string }>(enrolled);
    expect(otpauth_uri).toContain(`secret=${secret}`);
    const confirmed = await t.call('POST', '/api/v2/auth/totp/confirm', { auth: basic, body: { totp_code: await totpCodeAt(secret, now) } });
    expect(confirmed.status).toBe(200);
    expect((await readJson<{ recovery_codes: string[] }>(confirmed.clone())).recovery_codes).toHaveLength(10);
    expect(await eventOf(t, confirmed, 'totp_enabled')).toBeDefined();

    const refused = await t.call('GET', '/api/v2/auth/totp', { auth: basic });
    expect(refused.status).toBe(401);
    expect((await readJson<Problem>(refused)).messages.join(' ')).toMatch(/use an API key, or sign in/);

    const asked = await login({ username: user.username, password: 'user-password-1' });
    expect(asked.status).toBe(401);
    expect((await readJson<Problem>(asked)).details['totp_code']).toEqual([{ error: 'blank' }]);
    now = new Date(now.getTime() + 30_000);
    const code = await totpCodeAt(secret, now);
    const signedIn = await login({ username: user.username, password: 'user-password-1', totp_code: code });
    expect(signedIn.status).toBe(200);
    const replayed = await login({ username: user.username, password: 'user-password-1', totp_code: code });
    expect(replayed.status).toBe(401);
    expect((await readJson<Problem>(replayed)).details['totp_code']).toEqual([{ error: 'invalid' }]);

    // An API key, even the user's own with every scope, never turns a second factor on or off.
    for (const [method, path] of [
      ['GET', '/api/v2/auth/totp'],
      ['POST', '/api/v2/auth/totp'],
    ] as const) {
      expect((await t.call(method, path, { auth: await t.bearer('*/*') })).status).toBe(403);
    }
    const bearer = `Bearer ${(await readJson<{ token: string }>(signedIn)).token}`;
    const status = await t.call('GET', '/api/v2/auth/totp', { auth: bearer });
    expect(await readJson(status)).toEqual({ enabled: true, pending: false, recovery_codes_left: 10 });
  });

  it('a recovery code signs in once and turns TOTP off with an audit event; an admin resets another user’s', async () => {
    const user = await addTotpUser(t);
    const first = await login({ username: user.username, password: user.password, recovery_code: user.recovery[0] });
    expect(first.status).toBe(200);
    expect(await eventOf(t, first, 'recovery_code_used')).toBeDefined();
    expect((await login({ username: user.username, password: user.password, recovery_code: user.recovery[0] })).status).toBe(401);
    const bearer = `Bearer ${(await readJson<{ token: string }>(first)).token}`;
    const off = await t.call('POST', '/api/v2/auth/totp/disable', { auth: bearer, body: { recovery_code: user.recovery[1] } });
    expect(off.status).toBe(204);
    expect(await eventOf(t, off, 'totp_disabled')).toBeDefined();
    expect((await t.call('GET', '/api/v2/auth/totp', { auth: basicOf(user.username, user.password) })).status).toBe(200);

    const other = await addTotpUser(t);
    const reset = await t.call('DELETE', `/api/v2/users/${other.id}/totp`, { auth: t.basic });
    expect(reset.status).toBe(204);
    expect(await eventOf(t, reset, 'totp_disabled')).toBeDefined();
  });

  it('GET /sessions lists the caller’s own; DELETE /sessions/{id} ends it at its next request; a disabled user’s token is refused', async () => {
    const { user, token, sessionId } = await addSession(t);
    const bearer = `Bearer ${token}`;
    const mine = await readJson<{ count: number; sessions: Array<Record<string, unknown>> }>(await t.call('GET', '/api/v2/sessions', { auth: bearer }));
    expect(mine.count).toBe(1);
    expect(mine.sessions[0]).toMatchObject({ id: sessionId, user_id: user.id });
    const second = await addSession(t);
    expect((await readJson<{ count: number }>(await t.call('GET', '/api/v2/sessions', { auth: t.basic }))).count).toBe(2);
    // Another user's session is not found to a non-admin.
    expect((await t.call('DELETE', `/api/v2/sessions/${second.sessionId}`, { auth: bearer })).status).toBe(404);
    const ended = await t.call('DELETE', `/api/v2/sessions/${sessionId}`, { auth: bearer });
    expect(ended.status).toBe(204);
    expect(await eventOf(t, ended, 'session_revoked')).toBeDefined();
    expect((await t.call('GET', '/api/v2/sessions', { auth: bearer })).status).toBe(401);

    const disabled = await t.call('PUT', `/api/v2/users/${second.user.id}`, { auth: t.basic, body: { disabled: true } });
    expect(disabled.status).toBe(200);
    expect((await readJson<{ disabled: boolean }>(disabled)).disabled).toBe(true);
    expect((await t.call('GET', '/api/v2/sessions', { auth: `Bearer ${second.token}` })).status).toBe(401);
  });

  describe('two app instances on one PostgreSQL database', () => {
    let replicaB: { dms: Dms; dataDir: string } | undefined;
    afterAll(async () => {
      await replicaB?.dms.close();
      if (replicaB) rmSync(replicaB.dataDir, { recursive: true, force: true });
    });

    it.skipIf(onlyOn('postgres', 'two replicas share a PostgreSQL database'))('a session revoked on replica A stops at replica B', async () => {
      const generous = () => createMemoryRateLimiter({ limit: 1_000_000, windowSeconds: 60 });
      const dataDir = mkdtempSync(join(tmpdir(), 'dms-replica-b-'));
      const dms = await openDms({
        role: 'command',
        dataDir,
        databaseUrl: t.databaseUrl!,
        // One secret for both, as replicas must share it: B verifies A's tokens.
        secretKey: readFileSync(join(t.dataDir, 'secret.key'), 'utf8').trim(),
        core: { limits: { perCredential: generous(), perAddress: generous(), authFailures: generous() } },
      });
      replicaB = { dms, dataDir };
      const { app: appB } = createApp({ core: dms.core, logger: createLogger('silent') });
      const { token, sessionId } = await addSession(t);
      const onB = () => appB.request('/api/v2/sessions', { headers: { authorization: `Bearer ${token}` } });
      expect((await onB()).status).toBe(200);
      expect((await t.call('DELETE', `/api/v2/sessions/${sessionId}`, { auth: t.basic })).status).toBe(204);
      expect((await onB()).status).toBe(401);
    });
  });
});
