import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Principal } from '../scopes/principal.js';
import { describeOnEachAdapter, testAdmin, type TestCore } from '../testing/core-on-each-adapter.js';
import { outcomeOf, refusalOf } from '../testing/domain-outcome.js';

/**
 * Security review, findings 1 and 6, and round 2, finding 20.6 (docs/decisions/040-key-lineage.md): a key never
 * carries more than the principal that created it, expires no later than it, and dies with it.
 * Each principal is authenticated anew where the rule is read at use time, as a host does per
 * request. The REST routes that reach these rules: http-api test/security/key-lineage.test.ts.
 */
const everything = [{ controller: '*', action: '*' }];
const all = { kind: 'all' } as const;

describeOnEachAdapter('key lineage', (open) => {
  const start = Date.parse('2032-01-01T00:00:00.000Z');
  let now = start;
  let t: TestCore;
  const admin = () => t.asUser(testAdmin.username, testAdmin.password);
  const bob = () => t.asUser('bob', 'bob-pass-123456');
  beforeEach(async () => {
    now = start;
    t = await open({ clock: () => new Date(now) });
    await t.core.users.create(await admin(), { username: 'bob', password: 'bob-pass-123456' });
  });
  afterEach(() => t.close());

  const createKey = async (principal: Principal, body: Record<string, unknown>) => {
    const created = await t.core.apiKeys.create(principal, { name: 'k', ...body });
    return { ...created, as: () => t.asBearer(created.key) };
  };

  it('finding 1: a non-admin user cannot become admin through a */* key it creates', async () => {
    const key = await createKey(await bob(), { api_key_scopes: everything });
    const { core } = t;
    expect(await outcomeOf(core.users.update(await key.as(), 'bob', { admin: true }))).toBe('forbidden');
    expect(await outcomeOf(core.users.update(await key.as(), 'admin', { password: 'taken-over-123' }))).toBe('forbidden');
    expect(await outcomeOf(core.users.create(await key.as(), { username: 'mallory', password: 'mallory-pass-1', admin: true }))).toBe('forbidden');
    expect(await outcomeOf(core.settings.update(await key.as(), { jwt_enabled: true }))).toBe('forbidden');
    expect(await outcomeOf(core.corsRules.create(await key.as(), { origins: ['https://evil.example'], methods: ['GET'] }))).toBe('forbidden');
    // Resources stay reachable: the key holds what its creator holds.
    expect(await outcomeOf(core.shares.list(await key.as(), all, {}))).toBe('ok');
    expect((await core.users.show(await admin(), 'bob')).admin).toBe(false);
  });

  it("finding 1: non-admins cannot add CORS rules, read users or settings, nor see or revoke other users' keys", async () => {
    const { core } = t;
    const adminKey = await createKey(await admin(), { api_key_scopes: [{ controller: 'nas', action: 'index' }] });
    expect(await outcomeOf(core.corsRules.create(await bob(), { origins: ['https://evil.example'], methods: ['GET'] }))).toBe('forbidden');
    expect(await outcomeOf(core.corsRules.list(await bob(), {}))).toBe('forbidden');
    expect(await outcomeOf(core.users.list(await bob(), {}))).toBe('forbidden');
    expect(await outcomeOf(core.settings.show(await bob()))).toBe('forbidden');
    expect(await outcomeOf(core.apiKeys.destroy(await bob(), String(adminKey.id)))).toBe('not_found');
    expect(await outcomeOf(core.apiKeys.show(await bob(), String(adminKey.id)))).toBe('not_found');
    const own = await createKey(await bob(), { api_key_scopes: [{ controller: 'nas', action: 'index' }] });
    const listed = await core.apiKeys.list(await bob(), {});
    expect(listed.api_keys.map((k) => k.id)).toEqual([own.id]);
    expect(await outcomeOf(core.apiKeys.show(await admin(), String(adminKey.id)))).toBe('ok');
    expect(await outcomeOf(core.nas.list(await adminKey.as(), {}))).toBe('ok');
  });

  it('finding 1: a key of an admin loses admin rights when its creator is demoted, and dies when its creator is deleted', async () => {
    const { core } = t;
    await core.users.update(await admin(), 'bob', { admin: true });
    const key = await createKey(await bob(), { api_key_scopes: everything });
    expect(await outcomeOf(core.settings.show(await key.as()))).toBe('ok');
    expect(await outcomeOf(core.users.update(await admin(), 'bob', { admin: false }))).toBe('ok');
    expect(await outcomeOf(core.settings.show(await key.as()))).toBe('forbidden');
    expect(await outcomeOf(core.nas.list(await key.as(), {}))).toBe('ok');
    expect(await outcomeOf(core.users.destroy(await admin(), 'bob'))).toBe('ok');
    expect(await outcomeOf(key.as())).toBe('unauthenticated');
  });

  it('finding 1: a key created by a key is bounded by its creator at use time', async () => {
    const { core } = t;
    const parent = await createKey(await admin(), {
      api_key_scopes: [
        { controller: 'nas', action: '*' },
        { controller: 'api_keys', action: '*' },
      ],
    });
    const child = await createKey(await parent.as(), { api_key_scopes: [{ controller: 'nas', action: 'index' }] });
    expect(await outcomeOf(core.nas.list(await child.as(), {}))).toBe('ok');
    // Narrowing the parent narrows the child too.
    expect(await outcomeOf(core.apiKeys.update(await admin(), String(parent.id), { api_key_scopes: [{ controller: 'api_keys', action: '*' }] }))).toBe('ok');
    expect(await outcomeOf(core.nas.list(await child.as(), {}))).toBe('forbidden');
  });

  it('finding 6: a child key expires no later than its creator and dies when its creator is revoked', async () => {
    const { core } = t;
    const parentExpiry = new Date(start + 3600_000).toISOString();
    const parent = await createKey(await admin(), {
      api_key_scopes: [
        { controller: 'nas', action: 'index' },
        { controller: 'api_keys', action: 'create' },
      ],
      expires_at: parentExpiry,
    });
    const inherited = await createKey(await parent.as(), { api_key_scopes: [{ controller: 'nas', action: 'index' }] });
    expect(inherited.expires_at).toBe(parentExpiry);
    const later = await refusalOf(
      core.apiKeys.create(await parent.as(), { name: 'later', api_key_scopes: [{ controller: 'nas', action: 'index' }], expires_at: '9999-01-01T00:00:00Z' }),
    );
    expect(later.code).toBe('validation');
    expect(later.details).toHaveProperty('expires_at');
    expect(await outcomeOf(core.nas.list(await inherited.as(), {}))).toBe('ok');
    expect(await outcomeOf(core.apiKeys.destroy(await admin(), String(parent.id)))).toBe('ok');
    expect(await outcomeOf(inherited.as())).toBe('unauthenticated');
    expect(await outcomeOf(core.apiKeys.show(await admin(), String(inherited.id)))).toBe('not_found');
  });

  it("finding 6: a child key stops with its creator's expiry even if its own was set later by an admin", async () => {
    const parent = await createKey(await admin(), {
      api_key_scopes: [
        { controller: 'nas', action: 'index' },
        { controller: 'api_keys', action: 'create' },
      ],
      expires_at: new Date(start + 60_000).toISOString(),
    });
    const child = await createKey(await parent.as(), { api_key_scopes: [{ controller: 'nas', action: 'index' }] });
    await t.core.apiKeys.update(await admin(), String(child.id), { expires_at: null });
    now = start + 61_000;
    t.core.auth.forgetCredentials();
    expect(await outcomeOf(child.as())).toBe('unauthenticated');
  });

  it('finding 20.6: an expiring key cannot hand its scopes to a sibling that outlives it', async () => {
    const { core } = t;
    const expiry = new Date(start + 3600_000).toISOString();
    const scopesOfA = [
      { controller: 'nas', action: 'index' },
      { controller: 'api_keys', action: '*' },
    ];
    const a = await createKey(await bob(), { api_key_scopes: scopesOfA, expires_at: expiry });
    const b = await createKey(await bob(), { api_key_scopes: [{ controller: 'nas', action: 'index' }] });
    expect(b.expires_at).toBeNull();
    // The review's step: B, which never expires, takes A's scopes through A.
    const refusal = await refusalOf(core.apiKeys.update(await a.as(), String(b.id), { api_key_scopes: scopesOfA }));
    expect(refusal.code).toBe('validation');
    expect(refusal.details['expires_at']).toEqual([{ error: 'less_than_or_equal_to', value: expiry }]);
    expect(refusal.messages.join(' ')).toContain(`send expires_at of ${expiry} or earlier`);
    // Renaming it is changing it too; a later expiry, or none, is refused as well.
    for (const body of [{ name: 'renamed' }, { api_key_scopes: scopesOfA, expires_at: new Date(start + 7200_000).toISOString() }, { expires_at: null }]) {
      expect(await outcomeOf(core.apiKeys.update(await a.as(), String(b.id), body)), JSON.stringify(body)).toBe('validation');
    }
    const unchanged = await core.apiKeys.show(await bob(), String(b.id));
    expect(unchanged).toMatchObject({ name: 'k', api_key_scopes: [{ controller: 'nas', action: 'index' }], expires_at: null });
    // With an expiry no later than A's, in the same request, the change is within A's lifetime.
    expect(await outcomeOf(core.apiKeys.update(await a.as(), String(b.id), { api_key_scopes: scopesOfA, expires_at: expiry }))).toBe('ok');
    expect(await outcomeOf(core.apiKeys.list(await b.as(), {}))).toBe('ok');
    now = start + 3600_000 + 1000;
    core.auth.forgetCredentials();
    expect(await outcomeOf(a.as())).toBe('unauthenticated');
    expect(await outcomeOf(b.as())).toBe('unauthenticated');
  });

  it("finding 20.6: an expiring key may change a key that already ends no later than itself, through its own or its lineage's expiry", async () => {
    const { core } = t;
    const expiry = new Date(start + 3600_000).toISOString();
    const a = await createKey(await bob(), {
      api_key_scopes: [
        { controller: 'nas', action: 'index' },
        { controller: 'api_keys', action: '*' },
      ],
      expires_at: expiry,
    });
    const sooner = await createKey(await bob(), {
      api_key_scopes: [{ controller: 'nas', action: 'index' }],
      expires_at: new Date(start + 60_000).toISOString(),
    });
    expect(await outcomeOf(core.apiKeys.update(await a.as(), String(sooner.id), { name: 'renamed' }))).toBe('ok');
    // A child of A has A's expiry; an admin cleared the child's own, but A above it still bounds it.
    const child = await createKey(await a.as(), { api_key_scopes: [{ controller: 'nas', action: 'index' }] });
    expect(await outcomeOf(core.apiKeys.update(await admin(), String(child.id), { expires_at: null }))).toBe('ok');
    expect(await outcomeOf(core.apiKeys.update(await a.as(), String(child.id), { name: 'child' }))).toBe('ok');
  });

  it('finding 20.6: updating expires_at to a past date is 422, as on create', async () => {
    const { core } = t;
    const key = await createKey(await bob(), { api_key_scopes: [{ controller: 'nas', action: 'index' }] });
    for (const principal of [await bob(), await admin()]) {
      const error = await refusalOf(core.apiKeys.update(principal, String(key.id), { expires_at: new Date(start - 1000).toISOString() }));
      expect(error.code).toBe('validation');
      expect(error.details['expires_at']?.map((detail) => detail.error)).toContain('greater_than_or_equal_to');
      expect(error.messages.join(' ')).toContain('expires_at must be later than now');
    }
    expect(await outcomeOf(core.apiKeys.update(await bob(), String(key.id), { expires_at: new Date(start).toISOString() }))).toBe('validation');
    expect(await outcomeOf(core.apiKeys.update(await bob(), String(key.id), { expires_at: new Date(start + 1000).toISOString() }))).toBe('ok');
  });

  it('finding 6: an api_keys/* key cannot extend its own expiry', async () => {
    const { core } = t;
    const expiry = new Date(start + 3600_000).toISOString();
    const key = await createKey(await admin(), { api_key_scopes: [{ controller: 'api_keys', action: '*' }], expires_at: expiry });
    for (const expires_at of ['9999-01-01T00:00:00Z', null]) {
      expect(await outcomeOf(core.apiKeys.update(await key.as(), String(key.id), { expires_at }))).toBe('validation');
    }
    expect(await outcomeOf(core.apiKeys.update(await key.as(), String(key.id), { expires_at: new Date(start + 60_000).toISOString() }))).toBe('ok');
  });
});
