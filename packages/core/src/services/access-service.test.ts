import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStorage } from '../adapters/sqlite/index.js';
import { createShareDriverRegistry } from '../adapters/share-drivers/index.js';
import { createMemoryRateLimiter } from '../adapters/memory/index.js';
import { createAesGcmSecretBox } from '../adapters/aes-gcm/aes-gcm-secret-box.js';
import { systemPrincipal } from '../scopes/principal.js';
import type { DmsEvent } from '../domain/events.js';
import type { Storage } from '../ports/storage.js';
import type { AccessLimits, RateLimitDecision } from '../ports/rate-limiter.js';
import { createCore, type Core } from './create-core.js';
import type { AccessRequest, CredentialRequest } from './access-service.js';
import { countingHasher } from '../testing/counting-hasher.js';
import { bearerCredential, passwordCredential, type Credential } from '../security/credential.js';

const basicOf = (username: string, password: string) => passwordCredential(username, password);
const bearer = (token: string) => bearerCredential(token);
const attacker = '198.51.100.1';
const neighbour = '203.0.113.5';
const now = new Date('2030-01-02T03:04:05.000Z');

// The service answers at once where it can (a remembered credential, in-memory budgets): these
// read every answer as a promise, and what it throws at once as a rejection.
const authenticateRequest = async (core: Core, request: CredentialRequest) => core.access.authenticateRequest(request);
const guardPublicRequest = async (core: Core, request: AccessRequest) => core.access.guardPublicRequest(request);

interface Setup {
  core: Core;
  hasher: ReturnType<typeof countingHasher>;
  events: DmsEvent[];
}

describe('AccessService over SQLite', () => {
  let storage: Storage | undefined;
  afterEach(async () => {
    await storage?.close();
    storage = undefined;
  });

  /** Generous budgets but the production lockout (10 failures a minute), unless `limits` says otherwise. */
  async function setUp(limits: Partial<AccessLimits> = {}): Promise<Setup> {
    const secrets = createAesGcmSecretBox(randomBytes(32));
    storage = openSqliteStorage({ file: ':memory:', secrets });
    await storage.migrate();
    const hasher = countingHasher();
    const core = createCore({
      storage,
      secrets,
      drivers: createShareDriverRegistry({ localRoots: [] }),
      hasher,
      clock: () => now,
      limits: {
        perCredential: createMemoryRateLimiter({ limit: 1000, windowSeconds: 60 }),
        perAddress: createMemoryRateLimiter({ limit: 1000, windowSeconds: 60 }),
        authFailures: createMemoryRateLimiter({ limit: 10, windowSeconds: 60 }),
        ...limits,
      },
    });
    const events: DmsEvent[] = [];
    core.events.subscribe((event) => events.push(event));
    await core.users.add({ username: 'alice', password: 'alice-password-1' });
    await core.users.add({ username: 'bob', password: 'bob-password-1' });
    return { core, hasher, events };
  }

  const codeOf = (attempt: Promise<unknown>) =>
    attempt.then(
      () => 'ok',
      (error: { code?: string }) => error.code ?? String(error),
    );

  it('ten failed Basic authentications lock a user out from that address only, even with the right password', async () => {
    const { core } = await setUp();
    const authenticate = (address: string, credential: Credential) => authenticateRequest(core, { address, credential });
    for (let i = 0; i < 10; i++) expect(await codeOf(authenticate(attacker, basicOf('alice', `wrong-${i}`)))).toBe('unauthenticated');

    const refused = await authenticate(attacker, basicOf('alice', 'alice-password-1')).catch((error: unknown) => error);
    expect(refused).toMatchObject({ name: 'DomainError', code: 'rate_limited' });
    expect((refused as { retryAfter: number }).retryAfter).toBeGreaterThanOrEqual(1);
    expect((refused as { retryAfter: number }).retryAfter).toBeLessThanOrEqual(60);
    expect(await authenticate(neighbour, basicOf('alice', 'alice-password-1'))).toMatchObject({ kind: 'user', username: 'alice' });
    // The lockout is the claimed user's: another user from the same address is let in.
    expect(await authenticate(attacker, basicOf('bob', 'bob-password-1'))).toMatchObject({ kind: 'user', username: 'bob' });
  });

  it('publishes auth_failures_repeated once, on the tenth failure', async () => {
    const { core, events } = await setUp();
    const repeated = () => events.filter((event) => event.name === 'auth_failures_repeated');
    const guess = (password: string) => codeOf(authenticateRequest(core, { address: attacker, credential: basicOf('alice', password) }));
    for (let i = 0; i < 9; i++) await guess(`wrong-${i}`);
    expect(repeated()).toHaveLength(0);

    expect(await guess('wrong-9')).toBe('unauthenticated');
    expect(repeated()).toEqual([
      {
        name: 'auth_failures_repeated',
        severity: expect.any(Number),
        message: `10 failed authentications for user:alice from ${attacker} within a minute`,
        resource: { type: 'client', name: attacker },
        at: now,
      },
    ]);
    // Refusals during the lockout announce nothing new.
    expect(await guess('wrong-10')).toBe('rate_limited');
    expect(await guess('alice-password-1')).toBe('rate_limited');
    expect(repeated()).toHaveLength(1);
  });

  it('refuses a Basic guess over the address budget without a password check', async () => {
    const { core, hasher } = await setUp({ perAddress: createMemoryRateLimiter({ limit: 3, windowSeconds: 60 }) });
    const authenticate = (credential: Credential) => codeOf(authenticateRequest(core, { address: attacker, credential }));
    // A verified credential is remembered: after its first check it costs the address nothing.
    expect(await authenticate(basicOf('alice', 'alice-password-1'))).toBe('ok');
    expect(hasher.verifications).toBe(1);

    const outcomes: string[] = [];
    // A new user name each time, so that only the address budget can refuse.
    for (let i = 0; i < 5; i++) outcomes.push(await authenticate(basicOf(`guess${i}`, 'wrong-password')));
    expect(outcomes).toEqual(['unauthenticated', 'unauthenticated', 'rate_limited', 'rate_limited', 'rate_limited']);
    expect(hasher.verifications).toBe(3);
    expect(await authenticate(basicOf('alice', 'alice-password-1'))).toBe('ok');
    expect(hasher.verifications).toBe(3);
  });

  it('issue 40 item 7: failed sign-ins from one /64 share one lockout; an IPv4-mapped address is its IPv4 one', async () => {
    const { core } = await setUp();
    const fromHost = (i: number) => `2001:db8:0:7:${(i % 4) + 1}::${i + 1}`;
    const authenticate = (address: string, credential: Credential) => codeOf(authenticateRequest(core, { address, credential }));
    // Four addresses of one /64 take turns: ten guesses in all lock alice out of the whole /64.
    for (let i = 0; i < 10; i++) expect(await authenticate(fromHost(i), basicOf('alice', `wrong-${i}`))).toBe('unauthenticated');
    expect(await authenticate('2001:db8:0:7:ffff::9', basicOf('alice', 'alice-password-1'))).toBe('rate_limited');
    // Another /64 is another client.
    expect(await authenticate('2001:db8:0:8::1', basicOf('alice', 'alice-password-1'))).toBe('ok');

    // An IPv4 client seen IPv4-mapped on a dual-stack socket is the same client.
    for (let i = 0; i < 5; i++) expect(await authenticate(`::ffff:${attacker}`, basicOf('bob', `wrong-${i}`))).toBe('unauthenticated');
    for (let i = 5; i < 10; i++) expect(await authenticate(attacker, basicOf('bob', `wrong-${i}`))).toBe('unauthenticated');
    expect(await authenticate(attacker, basicOf('bob', 'bob-password-1'))).toBe('rate_limited');
  });

  it('issue 40 item 7: new names guessed from four addresses of one /64 are charged to one address budget', async () => {
    const { core } = await setUp({ perAddress: createMemoryRateLimiter({ limit: 3, windowSeconds: 60 }) });
    const outcomes: string[] = [];
    for (let i = 0; i < 4; i++)
      outcomes.push(await codeOf(authenticateRequest(core, { address: `2001:db8:0:7:${i + 1}::1`, credential: basicOf(`guess${i}`, 'wrong') })));
    expect(outcomes).toEqual(['unauthenticated', 'unauthenticated', 'unauthenticated', 'rate_limited']);
  });

  it('never locks a valid API key out for bad Bearer values from its address', async () => {
    const { core } = await setUp();
    const { key } = await core.apiKeys.create(systemPrincipal, { name: 'valid', api_key_scopes: [{ controller: 'nas', action: 'index' }] });
    const outcomes: string[] = [];
    for (let i = 0; i < 12; i++) outcomes.push(await codeOf(authenticateRequest(core, { address: attacker, credential: bearer(`dms_guess${i}`) })));
    expect(outcomes).toEqual([...Array<string>(10).fill('unauthenticated'), 'rate_limited', 'rate_limited']);
    expect(await authenticateRequest(core, { address: attacker, credential: bearer(key) })).toMatchObject({ kind: 'api_key', name: 'valid' });
  });

  it('answers a remembered key or password at once, charged as before, and a refusal at once too', async () => {
    const { core } = await setUp({ perCredential: createMemoryRateLimiter({ limit: 3, windowSeconds: 60 }) });
    const { key } = await core.apiKeys.create(systemPrincipal, { name: 'valid', api_key_scopes: [{ controller: 'nas', action: 'index' }] });
    const decisions: RateLimitDecision[] = [];
    const request = { address: neighbour, credential: bearer(key), onRateLimit: (decision: RateLimitDecision) => decisions.push(decision) };
    // The first use reads the key from storage and stamps its last use: a promise.
    const first = core.access.authenticateRequest(request);
    expect(first).toBeInstanceOf(Promise);
    await first;
    for (let i = 0; i < 2; i++) {
      const known = core.access.authenticateRequest(request);
      expect(known).not.toBeInstanceOf(Promise);
      expect(known).toMatchObject({ kind: 'api_key', name: 'valid' });
    }
    expect(() => core.access.authenticateRequest(request)).toThrow(expect.objectContaining({ code: 'rate_limited' }));
    expect(decisions.map((decision) => [decision.allowed, decision.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);

    await authenticateRequest(core, { address: neighbour, credential: basicOf('bob', 'bob-password-1') });
    expect(core.access.authenticateRequest({ address: neighbour, credential: basicOf('bob', 'bob-password-1') })).toMatchObject({ username: 'bob' });
  });

  it('ten failed logins lock the claimed user out of login and Basic from that address', async () => {
    const { core, events } = await setUp();
    await core.settings.update(systemPrincipal, { jwt_enabled: true });
    const login = (username: string, password: string, address = attacker) =>
      core.access.login({ address, credential: passwordCredential(username, password) });
    for (let i = 0; i < 10; i++) expect(await codeOf(login('alice', `wrong-${i}`))).toBe('unauthenticated');
    expect(events.filter((event) => event.name === 'auth_failures_repeated')).toHaveLength(1);

    expect(await codeOf(login('alice', 'alice-password-1'))).toBe('rate_limited');
    expect(await codeOf(authenticateRequest(core, { address: attacker, credential: basicOf('alice', 'alice-password-1') }))).toBe('rate_limited');
    expect(await login('bob', 'bob-password-1')).toMatchObject({ token: expect.any(String) });
    expect(await login('alice', 'alice-password-1', neighbour)).toMatchObject({ token: expect.any(String) });
  });

  it('reports every budget decision, refusals and errors it did not make included, and counts failures', async () => {
    const { core } = await setUp({ perAddress: createMemoryRateLimiter({ limit: 2, windowSeconds: 60 }) });
    const decisions: RateLimitDecision[] = [];
    let failures = 0;
    const request = { address: attacker, onRateLimit: (decision: RateLimitDecision) => decisions.push(decision), onAuthFailure: () => (failures += 1) };

    await guardPublicRequest(core, request);
    // No credential: the 401 is AuthService's, and still carries the address's budget.
    expect(await codeOf(authenticateRequest(core, { ...request, credential: undefined }))).toBe('unauthenticated');
    expect(await codeOf(guardPublicRequest(core, request))).toBe('rate_limited');
    expect(decisions.map(({ allowed, limit, remaining }) => ({ allowed, limit, remaining }))).toEqual([
      { allowed: true, limit: 2, remaining: 1 },
      { allowed: true, limit: 2, remaining: 0 },
      { allowed: false, limit: 2, remaining: 0 },
    ]);
    // A missing credential is no failed authentication; a wrong key is.
    expect(failures).toBe(0);
    expect(await codeOf(authenticateRequest(core, { ...request, credential: bearer('dms_wrong') }))).toBe('rate_limited');
    expect(failures).toBe(1);
  });

  it("finding 20.8: a key's requests are charged to its owner as well, so minting keys does not multiply the budget", async () => {
    const { core } = await setUp({ perCredential: createMemoryRateLimiter({ limit: 6, windowSeconds: 60 }) });
    const alice = await authenticateRequest(core, { address: neighbour, credential: basicOf('alice', 'alice-password-1') });
    const keys = await Promise.all(
      [1, 2, 3].map(async (n) => (await core.apiKeys.create(alice, { name: `k${n}`, api_key_scopes: [{ controller: 'nas', action: 'index' }] })).key),
    );
    // Alice's own request spent 1 of 6; three keys with 2 requests each would spend 6 more.
    const outcomes: string[] = [];
    for (const key of keys) for (let i = 0; i < 2; i++) outcomes.push(await codeOf(authenticateRequest(core, { address: neighbour, credential: bearer(key) })));
    expect(outcomes).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'rate_limited']);
    const refused = await authenticateRequest(core, { address: neighbour, credential: bearer(keys[0]!) }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'rate_limited', message: expect.stringContaining("key's user") });
  });

  it('finding 20.3: a console session follows its user as stored (demoted at once; ended by a new password or deletion)', async () => {
    const { core } = await setUp();
    const admin = await core.users.add({ username: 'carol', password: 'carol-password-1', admin: true });
    const bob = await core.users.add({ username: 'bobby', password: 'bobby-password-1', admin: true });
    const { principal, session } = await core.access.signIn({ address: 'desktop-ipc', credential: passwordCredential('bobby', 'bobby-password-1') });
    expect(principal).toMatchObject({ kind: 'user', username: 'bobby', admin: true });
    expect(JSON.stringify(session)).not.toContain('bobby-password-1');
    const resume = () => authenticateRequest(core, { address: 'desktop-ipc', credential: session });
    expect(await resume()).toMatchObject({ admin: true });

    const carol = await authenticateRequest(core, { address: neighbour, credential: basicOf('carol', 'carol-password-1') });
    await core.users.update(carol, String(bob.id), { admin: false });
    expect(await resume()).toMatchObject({ username: 'bobby', admin: false });

    await core.users.update(carol, String(bob.id), { password: 'bobby-password-2' });
    await expect(resume()).rejects.toMatchObject({ code: 'unauthenticated', message: expect.stringContaining('password changed') });

    const again = await core.access.signIn({ address: 'desktop-ipc', credential: passwordCredential('bobby', 'bobby-password-2') });
    await core.users.destroy(carol, String(bob.id));
    // A new user of the same name is someone else: the old session does not become theirs.
    await core.users.add({ username: 'bobby', password: 'bobby-password-2', admin: true });
    await expect(authenticateRequest(core, { address: 'desktop-ipc', credential: again.session })).rejects.toMatchObject({ code: 'unauthenticated' });
    expect(admin.admin).toBe(true);
  });

  it('finding 20.2: a credential no user can have is refused before any lookup or password check', async () => {
    const { core, hasher } = await setUp();
    for (const credential of [
      passwordCredential('ali\u0000ce', 'alice-password-1'),
      passwordCredential('a'.repeat(300), 'x'),
      bearer('dms_\u0000'),
      bearer('x'.repeat(5000)),
    ]) {
      expect(credential.kind).toBe('unreadable');
      expect(await codeOf(authenticateRequest(core, { address: attacker, credential }))).toBe('unauthenticated');
    }
    expect(hasher.verifications).toBe(0);
  });

  it('item 21.12: a hundred concurrent requests with one uncached password share one argon2 check', async () => {
    const { core, hasher } = await setUp();
    const before = hasher.verifications;
    const outcomes = await Promise.all(
      Array.from({ length: 100 }, () => codeOf(authenticateRequest(core, { address: neighbour, credential: basicOf('alice', 'alice-password-1') }))),
    );
    expect(outcomes).toEqual(Array<string>(100).fill('ok'));
    expect(hasher.verifications - before).toBe(1);
    // A wrong password is shared too, and every request still counts as a failure.
    const wrong = await Promise.all(
      Array.from({ length: 5 }, () => codeOf(authenticateRequest(core, { address: neighbour, credential: basicOf('bob', 'not-it') }))),
    );
    expect(wrong).toEqual(Array<string>(5).fill('unauthenticated'));
    expect(hasher.verifications - before).toBe(2);
  });
});
