import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Principal } from '../scopes/principal.js';
import { systemPrincipal } from '../scopes/principal.js';
import { scopeCatalogue } from '../scopes/scope-catalogue.js';
import { describeOnEachAdapter, testAdmin, type TestCore } from '../testing/core-on-each-adapter.js';
import { outcomeOf, refusalOf } from '../testing/domain-outcome.js';

/**
 * Security round 2, findings 7 and 8 (its key-cap half): scopes a check can match, and keys per
 * user, as ApiKeyService and the storage's capped insert keep them. The REST routes that reach
 * these rules (422 / 409 model_errors): http-api test/security/key-scopes-and-cap.test.ts.
 */
type Scopes = Array<{ controller: string; action: string }>;

describeOnEachAdapter('API key scopes and the number of keys per user', (open) => {
  let t: TestCore;
  let admin: Principal;
  const bob = () => t.asUser('bob', 'bob-pass-123456');
  beforeEach(async () => {
    t = await open();
    admin = await t.asUser(testAdmin.username, testAdmin.password);
    await t.core.users.create(admin, { username: 'bob', password: 'bob-pass-123456' });
  });
  afterEach(() => t.close());

  const createKey = (principal: Principal, scopes: Scopes, name = 'k') => t.core.apiKeys.create(principal, { name, api_key_scopes: scopes });
  /** The field and type of the one detail a refusal carries, and its messages. */
  const invalid = async (call: Promise<unknown>, attribute: string) => {
    const error = await refusalOf(call);
    expect(error.code).toBe('validation');
    expect(
      error.details[attribute]?.map((detail) => detail.error),
      JSON.stringify(error.details),
    ).toContain('invalid');
    return error.messages;
  };

  it('finding 20.7: a scope naming no controller or action of the scope catalogue is 422, naming what is allowed and the closest', async () => {
    const controllers = scopeCatalogue.map((entry) => entry.controller).join(', ');
    const byController = await invalid(createKey(admin, [{ controller: 'nas_share', action: 'index' }]), 'api_key_scopes.0.controller');
    expect(byController).toEqual([`api_key_scopes[0].controller must be * or one of ${controllers}; did you mean 'nas_shares'?`]);

    const byAction = await invalid(
      createKey(admin, [
        { controller: 'nas', action: 'index' },
        { controller: 'nas_shares', action: 'indx' },
      ]),
      'api_key_scopes.1.action',
    );
    expect(byAction).toEqual([
      "api_key_scopes[1].action must be * or an action of nas_shares: index, show, create, update, destroy, test, scan, get_password; did you mean 'index'?",
    ]);

    // get_password is an action of the controllers with a secret only; a `*` controller takes any catalogue action.
    await invalid(createKey(admin, [{ controller: 'jobs', action: 'get_password' }]), 'api_key_scopes.0.action');
    const anyController = await invalid(createKey(admin, [{ controller: '*', action: 'frobnicate' }]), 'api_key_scopes.0.action');
    expect(anyController[0]).toMatch(
      /^api_key_scopes\[0\]\.action must be \* or an action of some controller: index, show, create, update, destroy, test, scan, get_password/,
    );

    // The same on update, and through a key; nothing was stored.
    expect((await t.core.apiKeys.list(admin, {})).count).toBe(0);
    const { id, key } = await createKey(admin, [
      { controller: 'nas', action: 'index' },
      { controller: 'api_keys', action: '*' },
    ]);
    const updated = await invalid(
      t.core.apiKeys.update(await t.asBearer(key), String(id), { api_key_scopes: [{ controller: 'nas', action: 'shwo' }] }),
      'api_key_scopes.0.action',
    );
    expect(updated[0]).toMatch(/^api_key_scopes\[0\]\.action must be \* or an action of nas: .*; did you mean 'show'\?$/);
  });

  it('finding 20.7: * wildcards and every catalogue pair stay valid', async () => {
    const valid = [
      { controller: '*', action: '*' },
      { controller: '*', action: 'index' },
      { controller: '*', action: 'get_password' },
      { controller: 'nas_shares', action: '*' },
      ...scopeCatalogue.flatMap((entry) => entry.actions.map((action) => ({ controller: entry.controller, action }))),
    ];
    expect((await createKey(admin, valid)).api_key_scopes).toEqual(valid);
  });

  it("finding 20.8: a user holds at most api_keys_max_per_user keys, its keys' keys included: beyond, 409 naming the setting", async () => {
    const { core } = t;
    expect((await core.settings.show(admin)).api_keys_max_per_user).toBe(100);
    const zero = await refusalOf(core.settings.update(admin, { api_keys_max_per_user: 0 }));
    expect(zero.code).toBe('validation');
    expect(zero.details).toHaveProperty('api_keys_max_per_user');
    expect(await outcomeOf(core.settings.update(admin, { api_keys_max_per_user: 3 }))).toBe('ok');

    const scopes = [
      { controller: 'nas', action: 'index' },
      { controller: 'api_keys', action: 'create' },
    ];
    const parent = await t.asBearer((await createKey(await bob(), scopes)).key);
    expect(await outcomeOf(createKey(parent, [{ controller: 'nas', action: 'index' }]))).toBe('ok');
    expect(await outcomeOf(createKey(await bob(), scopes))).toBe('ok');
    for (const principal of [await bob(), parent]) {
      const refused = await refusalOf(createKey(principal, [{ controller: 'nas', action: 'index' }]));
      expect(refused.code).toBe('conflict');
      expect(refused.details['api_keys_max_per_user']).toEqual([{ error: 'less_than_or_equal_to', count: 3 }]);
      expect(refused.messages.join(' ')).toContain('api_keys_max_per_user');
    }
    // Another user's keys, and keys made by the system (CLI, console), count on their own.
    expect(await outcomeOf(createKey(admin, scopes))).toBe('ok');
    for (let i = 0; i < 4; i++) await createKey(systemPrincipal, [{ controller: 'nas', action: 'index' }], 'test key');
    const listed = await core.apiKeys.list(await bob(), {});
    expect(listed.api_keys).toHaveLength(3);
    // Revoking one makes room again.
    expect(await outcomeOf(core.apiKeys.destroy(await bob(), String(listed.api_keys.at(-1)!.id)))).toBe('ok');
    expect(await outcomeOf(createKey(await bob(), scopes))).toBe('ok');
  });

  it('finding 20.8: concurrent creates never pass the cap', async () => {
    await t.core.settings.update(admin, { api_keys_max_per_user: 2 });
    const principal = await bob();
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => outcomeOf(createKey(principal, [{ controller: 'nas', action: 'index' }], `k${i}`))));
    expect(answers.sort()).toEqual(['conflict', 'conflict', 'conflict', 'conflict', 'ok', 'ok']);
    expect((await t.core.apiKeys.list(principal, {})).count).toBe(2);
  });
});
