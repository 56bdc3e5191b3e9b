import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import type { Principal } from '../scopes/principal.js';
import { passwordCredential } from '../security/credential.js';
import { isDomainError } from '../errors/domain-error.js';
import { describeOnEachAdapter, testAdmin, type TestCore } from '../testing/core-on-each-adapter.js';
import type { SecondFactor } from '../domain/totp.js';

/**
 * Issue 46 (docs/decisions/178-totp-second-factor.md, docs/decisions/179-sessions.md): a TOTP
 * second factor whose codes the test computes from the secret at the injected clock, recovery
 * codes of single use, Basic refused to a TOTP user, and stored sessions that end when revoked
 * or when their user is disabled.
 */
const alice = { username: 'alice', password: 'alice-password-1' };

async function refusal(work: Promise<unknown>): Promise<{ code: string; message: string; details: Record<string, Array<{ error: string }>> }> {
  try {
    await work;
  } catch (error) {
    if (isDomainError(error)) return { code: error.code, message: error.message, details: error.details };
    throw error;
  }
  throw new Error('expected a refusal');
}

describeOnEachAdapter('TOTP and sessions', (open) => {
  let t: TestCore;
  let now: Date;
  let admin: Principal;
  let user: Principal;
  beforeEach(async () => {
    now = new Date('2026-03-01T10:00:05Z');
    t = await open({ clock: () => now });
    admin = await t.asUser(testAdmin.username, testAdmin.password);
    await t.core.settings.update(admin, { jwt_enabled: true });
    await t.core.users.create(admin, alice);
    user = await t.asUser(alice.username, alice.password);
  });
  afterEach(() => t.close());

  const codeAt = (secret: string, at: Date) => generate({ secret, epoch: Math.floor(at.getTime() / 1000) });
  const login = (factor: SecondFactor = {}, who = alice) =>
    t.core.access.login(
      { address: '192.0.2.7', credential: passwordCredential(who.username, who.password) },
      { factor, client: { userAgent: 'test-agent', ip: '192.0.2.7' } },
    );
  const actions = async () => (await t.core.auditEvents.list(admin, {})).audit_events.map((event) => event.action);

  /** Enrolls alice and turns TOTP on with a code of the current step; answers the secret and the recovery codes. */
  async function turnOn(): Promise<{ secret: string; recovery: string[] }> {
    const { secret, otpauth_uri } = await t.core.totp.enroll(user);
    expect(otpauth_uri).toMatch(/^otpauth:\/\/totp\/dms:alice\?/);
    expect(otpauth_uri).toContain(`secret=${secret}`);
    expect(await t.core.totp.status(user)).toEqual({ enabled: false, pending: true, recovery_codes_left: 0 });
    const { recovery_codes } = await t.core.totp.confirm(user, { totp_code: await codeAt(secret, now) });
    return { secret, recovery: recovery_codes };
  }

  it('a code computed from the secret turns TOTP on; the secret is sealed at rest and 10 recovery codes are answered once', async () => {
    const { secret, recovery } = await turnOn();
    expect(recovery).toHaveLength(10);
    expect(new Set(recovery).size).toBe(10);
    expect(await t.core.totp.status(user)).toEqual({ enabled: true, pending: false, recovery_codes_left: 10 });
    const stored = await (await t.sameStorage()).userTotp.get((user as { userId: number }).userId);
    expect(stored?.secret).not.toContain(secret);
    expect(JSON.stringify(stored?.recovery_codes)).not.toContain(recovery[0]!.replace('-', ''));
    expect(await actions()).toContain('totp_enabled');
  });

  it('a wrong code does not turn TOTP on', async () => {
    const { secret } = await t.core.totp.enroll(user);
    const wrong = String((Number(await codeAt(secret, now)) + 1) % 1_000_000).padStart(6, '0');
    expect((await refusal(t.core.totp.confirm(user, { totp_code: wrong }))).code).toBe('validation');
    expect((await t.core.totp.status(user)).enabled).toBe(false);
  });

  it('sign-in asks for the code, takes it once, takes the next step’s code, and refuses Basic for the user', async () => {
    const { secret } = await turnOn();
    const needed = await refusal(login());
    expect(needed.code).toBe('unauthenticated');
    expect(needed.details['totp_code']).toEqual([{ error: 'blank' }]);
    // The confirmation took this step's code: the same code is a replay.
    const replay = await refusal(login({ totp_code: await codeAt(secret, now) }));
    expect(replay.details['totp_code']).toEqual([{ error: 'invalid' }]);
    now = new Date(now.getTime() + 30_000);
    const { token } = await login({ totp_code: await codeAt(secret, now) });
    expect(await t.asBearer(token)).toMatchObject({ kind: 'user', username: 'alice' });
    expect((await refusal(login({ totp_code: await codeAt(secret, now) }))).details['totp_code']).toEqual([{ error: 'invalid' }]);
    const basic = await refusal(t.asUser(alice.username, alice.password));
    expect(basic.code).toBe('unauthenticated');
    expect(basic.message).toMatch(/use an API key, or sign in/);
  });

  it('a recovery code signs in once, in any case and spacing, and is audited', async () => {
    const { recovery } = await turnOn();
    const code = recovery[3]!;
    const { token } = await login({ recovery_code: ` ${code.toUpperCase()} ` });
    expect(token).toBeTruthy();
    expect((await refusal(login({ recovery_code: code }))).details['recovery_code']).toEqual([{ error: 'invalid' }]);
    expect((await t.core.totp.status(user)).recovery_codes_left).toBe(9);
    expect(await actions()).toContain('recovery_code_used');
  });

  it('turning off needs a code or a recovery code; an admin may reset it; both are audited', async () => {
    const { secret, recovery } = await turnOn();
    expect((await refusal(t.core.totp.disable(user, {}))).details['totp_code']).toEqual([{ error: 'blank' }]);
    await t.core.totp.disable(user, { recovery_code: recovery[0] });
    expect((await t.core.totp.status(user)).enabled).toBe(false);
    expect(await t.asUser(alice.username, alice.password)).toMatchObject({ username: 'alice' });
    now = new Date(now.getTime() + 60_000);
    const again = await t.core.totp.enroll(user);
    expect(again.secret).not.toBe(secret);
    await t.core.totp.confirm(user, { totp_code: await codeAt(again.secret, now) });
    await t.core.totp.reset(admin, 'alice');
    expect((await t.core.totp.status(user)).enabled).toBe(false);
    expect((await actions()).filter((action) => action === 'totp_disabled')).toHaveLength(2);
  });

  it('wrong codes sent to turn TOTP off are counted: past the failed-authentication budget the answer is 429', async () => {
    await turnOn();
    let last = '';
    for (let attempt = 0; attempt < 12 && last !== 'rate_limited'; attempt += 1)
      last = (await refusal(t.core.totp.disable(user, { recovery_code: 'aaaaa-aaaaa' }))).code;
    expect(last).toBe('rate_limited');
    expect((await t.core.totp.status(user)).enabled).toBe(true);
  });

  describe('sessions', () => {
    it('a sign-in is a session its owner lists and revokes; the token stops at its next use', async () => {
      const { token } = await login();
      const mine = await t.core.sessions.list(user, {});
      expect(mine.count).toBe(1);
      expect(mine.sessions[0]).toMatchObject({ user_agent: 'test-agent', ip: '192.0.2.7', created_at: now.toISOString() });
      await login(undefined, testAdmin);
      expect((await t.core.sessions.list(user, {})).count).toBe(1);
      expect((await t.core.sessions.list(admin, {})).count).toBe(2);
      await t.core.sessions.revoke(user, mine.sessions[0]!.id);
      expect((await refusal(t.asBearer(token))).message).toMatch(/session ended/);
      expect(await actions()).toContain('session_revoked');
    });

    it('another user’s session is not found to a non-admin; an admin revokes it', async () => {
      await login(undefined, testAdmin);
      const adminSession = (await t.core.sessions.list(admin, {})).sessions[0]!;
      expect((await refusal(t.core.sessions.revoke(user, adminSession.id))).code).toBe('not_found');
      const { token } = await login();
      const aliceSession = (await t.core.sessions.list(user, {})).sessions[0]!;
      await t.core.sessions.revoke(admin, aliceSession.id);
      expect((await refusal(t.asBearer(token))).code).toBe('unauthenticated');
    });

    it('last_used_at is written at most once a minute', async () => {
      const { token } = await login();
      const lastUsed = async () => (await t.core.sessions.list(user, {})).sessions[0]!.last_used_at;
      now = new Date(now.getTime() + 90_000);
      await t.asBearer(token);
      expect(await lastUsed()).toBe(now.toISOString());
      const touched = now.toISOString();
      now = new Date(now.getTime() + 20_000);
      await t.asBearer(token);
      expect(await lastUsed()).toBe(touched);
    });

    it('a disabled user’s sessions and Basic credential are refused, and it cannot sign in', async () => {
      const { token } = await login();
      await t.core.users.update(admin, 'alice', { disabled: true });
      expect((await refusal(t.asBearer(token))).code).toBe('unauthenticated');
      expect((await refusal(t.asUser(alice.username, alice.password))).message).toMatch(/disabled/);
      expect((await refusal(login())).message).toMatch(/disabled/);
      expect((await t.core.users.show(admin, 'alice')).disabled).toBe(true);
      await t.core.users.update(admin, 'alice', { disabled: false });
      // Ended, not paused: the old token stays refused.
      expect((await refusal(t.asBearer(token))).code).toBe('unauthenticated');
    });

    it('a deleted user’s token is refused', async () => {
      const { token } = await login();
      await t.core.users.destroy(admin, 'alice');
      expect((await refusal(t.asBearer(token))).code).toBe('unauthenticated');
    });
  });
});
