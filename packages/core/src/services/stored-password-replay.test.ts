import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Principal } from '../scopes/principal.js';
import { systemPrincipal } from '../scopes/principal.js';
import type { Nas } from '../domain/nas.js';
import type { NasShare } from '../domain/nas-share.js';
import { describeOnEachAdapter, testAdmin, type TestCore } from '../testing/core-on-each-adapter.js';

/**
 * Security review, finding 3 (docs/decisions/037-stored-passwords-follow-their-target.md): a stored share password is never replayed to a new
 * target. The rule sits in ShareService.update (a share moved) and NasService.update (its NAS
 * moved); the REST routes that reach it: http-api test/security/stored-password-replay.test.ts.
 */
const all = { kind: 'all' } as const;

describeOnEachAdapter('stored password replay', (open) => {
  let t: TestCore;
  let admin: Principal;
  let nas: Nas;
  let share: NasShare;
  beforeEach(async () => {
    t = await open();
    admin = await t.asUser(testAdmin.username, testAdmin.password);
    nas = await t.core.nas.create(admin, { name: 'filer', type: 'smb_v3', host: 'files.example' });
    share = await t.core.shares.create(admin, String(nas.id), { name: 'data', path: 'data', options: 'port=445', username: 'bob', password: 'stored-secret' });
  });
  afterEach(() => t.close());

  const storedPassword = async () => (await t.core.shares.show(admin, all, String(share.id))).password;
  /** A key the system makes (CLI, console) with these scopes, as the principal it stands for. */
  const key = async (...scopes: Array<`${string}/${string}`>) => {
    const api_key_scopes = scopes.map((scope) => ({ controller: scope.split('/')[0], action: scope.split('/')[1] }));
    return t.asBearer((await t.core.apiKeys.create(systemPrincipal, { name: 'test key', api_key_scopes })).key);
  };
  const updateShare = (principal: Principal, body: Record<string, unknown>) => t.core.shares.update(principal, all, String(share.id), body);
  const updateNas = (principal: Principal, body: Record<string, unknown>) => t.core.nas.update(principal, String(nas.id), body);

  it('finding 3: a key without get_password that moves a share (options, path, username) clears its stored password', async () => {
    const mover = await key('nas_shares/*');
    for (const moved of [{ options: 'port=4455' }, { path: 'other' }, { username: 'alice' }]) {
      await updateShare(admin, { password: 'stored-secret' });
      await updateShare(mover, moved);
      expect(await storedPassword(), JSON.stringify(moved)).toBeNull();
    }
  });

  it('finding 3: the same values, a new password, a user or a key with get_password keep the stored one', async () => {
    const mover = await key('nas_shares/*');
    await updateShare(mover, { options: 'port=445', name: 'renamed' });
    expect(await storedPassword()).toBe('stored-secret');
    await updateShare(mover, { options: 'port=4455', password: 'new-secret' });
    expect(await storedPassword()).toBe('new-secret');
    await updateShare(admin, { options: 'port=445' });
    expect(await storedPassword()).toBe('new-secret');
    const trusted = await key('nas_shares/*', 'nas_shares/get_password');
    await updateShare(trusted, { path: 'elsewhere' });
    expect(await storedPassword()).toBe('new-secret');
  });

  it('finding 3: a key without get_password that moves the NAS (host or type) clears the passwords of its shares', async () => {
    const mover = await key('nas/*');
    await updateNas(mover, { comment: 'same place' });
    expect(await storedPassword()).toBe('stored-secret');
    await updateNas(mover, { host: 'attacker.example' });
    expect(await storedPassword()).toBeNull();
    await updateShare(admin, { password: 'stored-secret' });
    await updateNas(mover, { type: 'smb_v1' });
    expect(await storedPassword()).toBeNull();
    await updateShare(admin, { password: 'stored-secret' });
    await updateNas(admin, { host: 'files.example' });
    expect(await storedPassword()).toBe('stored-secret');
  });
});
