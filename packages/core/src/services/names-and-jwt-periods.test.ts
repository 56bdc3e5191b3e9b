import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Principal } from '../scopes/principal.js';
import { describeOnEachAdapter, testAdmin, type TestCore } from '../testing/core-on-each-adapter.js';
import { outcomeOf, refusalOf } from '../testing/domain-outcome.js';

/**
 * Security review, findings 14 and 15, and round 2, finding 20.16: names that read as ids or
 * hide bidi controls (the resources' schemas, as every service parses them), and the JWT periods
 * of AuthService and SettingsService. The REST routes that reach these rules:
 * http-api test/security/names-and-tokens.test.ts.
 */
describeOnEachAdapter('names and JWT periods', (open) => {
  let t: TestCore;
  let admin: Principal;
  beforeEach(async () => {
    t = await open();
    admin = await t.asUser(testAdmin.username, testAdmin.password);
  });
  afterEach(() => t.close());

  const addNas = () => t.core.nas.create(admin, { name: 'filer', host: 'nas.example', type: 'smb_v3' });
  /** Each way a name is given, by the field that holds it. */
  const namers = (nasId: number): Array<[string, (name: string) => Promise<unknown>, string]> => [
    ['POST /nas', (name) => t.core.nas.create(admin, { host: 'nas.example', type: 'smb_v3', name }), 'name'],
    ['POST /pools', (name) => t.core.pools.create(admin, { name }), 'name'],
    ['POST /nas/{id}/nas_shares', (name) => t.core.shares.create(admin, String(nasId), { path: '/srv/x', name }), 'name'],
    ['POST /users', (username) => t.core.users.create(admin, { password: 'long-enough-pass', username }), 'username'],
  ];

  it('finding 14: all-digit names and names with bidi controls are refused for shares, NAS, pools and users, saying why', async () => {
    const nas = await addNas();
    for (const [what, give, field] of namers(nas.id)) {
      for (const [name, why] of [
        ['5', 'all digits'],
        ['invoice\u202Efdp.exe', 'bidirectional'],
      ] as const) {
        const error = await refusalOf(give(name));
        expect(error.code, `${what} ${JSON.stringify(name)}`).toBe('validation');
        expect(error.details).toHaveProperty(field);
        // User names take letters, digits and . _ @ - only, which the message says instead.
        expect(error.messages.join(' ')).toContain(field === 'username' && why === 'bidirectional' ? 'may contain letters' : why);
      }
    }
    expect(await outcomeOf(t.core.nas.update(admin, String(nas.id), { name: '42' }))).toBe('validation');
    expect(await outcomeOf(t.core.nas.create(admin, { name: 'rack-5', host: 'nas.example', type: 'smb_v3' }))).toBe('ok');
  });

  it('finding 20.16: names that read as ids (invisible format characters, full-width or other digits) are refused as all-digit names are', async () => {
    const nas = await addNas();
    const attempts = [...namers(nas.id), ['PUT /nas/{id}', (name: string) => t.core.nas.update(admin, String(nas.id), { name }), 'name'] as const];
    const idLike = ['17\u200b', '\ufeff17', '\uff11\uff17', '1\u200d7', '\u200e42', '\u0661\u0667', '\u{1d7cf}\u{1d7d5}'];
    for (const [what, give, field] of attempts) {
      for (const name of idLike) {
        const error = await refusalOf(give(name));
        expect(error.code, `${what} ${JSON.stringify(name)}`).toBe('validation');
        expect(error.details).toHaveProperty(field);
        // User names take ASCII letters, digits and . _ @ - only, which refuses these already.
        if (field === 'name')
          expect(error.messages, `${what} ${JSON.stringify(name)}`).toEqual(['name must not be all digits (an all-digit name would read as an id in paths)']);
      }
    }
    // Digits among letters stay fine, with or without a format character.
    for (const name of ['rack\u200b17', '\uff52ack-17', '17-a']) {
      expect(await outcomeOf(t.core.pools.create(admin, { name })), JSON.stringify(name)).toBe('ok');
    }
  });

  it('finding 15: disabling and re-enabling JWT mode ends tokens issued before', async () => {
    const setJwt = (jwt_enabled: boolean) => t.core.settings.update(admin, { jwt_enabled });
    const login = async () => (await t.core.auth.login({ kind: 'password', ...testAdmin })).token;
    await setJwt(true);
    const old = await login();
    expect(await outcomeOf(t.asBearer(old))).toBe('ok');
    await setJwt(false);
    expect(await outcomeOf(t.asBearer(old))).toBe('unauthenticated');
    await setJwt(true);
    expect(await outcomeOf(t.asBearer(old))).toBe('unauthenticated');
    const fresh = await login();
    expect(await outcomeOf(t.asBearer(fresh))).toBe('ok');
    // Saving settings while JWT mode stays on keeps the current tokens.
    await t.core.settings.update(admin, { jwt_enabled: true, jwt_ttl_seconds: 600 });
    expect(await outcomeOf(t.asBearer(fresh))).toBe('ok');
  });
});
