import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { addNas, addShare, readJson, type Nas, type NasShare } from '../testing/fixtures.js';

const api = (path: string) => `/api/v2${path}`;

/** Security review, finding 3 (DESIGN §5.19): a stored share password is never replayed to a new target. */
describe('security review: stored password replay', () => {
  let t: TestApp;
  let nas: Nas;
  let share: NasShare;
  beforeEach(async () => {
    t = await createTestApp();
    nas = await addNas(t, { type: 'smb_v3', host: 'files.example' });
    share = await addShare(t, nas, { path: 'data', options: 'port=445', username: 'bob', password: 'stored-secret' });
  });
  afterEach(() => t.close());

  const storedPassword = async () => (await readJson<NasShare>(await t.call('GET', api(`/nas_shares/${share.id}`), { auth: t.basic }))).password;
  const update = async (auth: string, path: string, body: Record<string, unknown>) => {
    const res = await t.call('PUT', api(path), { auth, body });
    expect(res.status, await res.clone().text()).toBe(200);
  };

  it('finding 3: a key without get_password that moves a share (options, path, username) clears its stored password', async () => {
    const key = await t.bearer('nas_shares/*');
    for (const moved of [{ options: 'port=4455' }, { path: 'other' }, { username: 'alice' }]) {
      await update(t.basic, `/nas_shares/${share.id}`, { password: 'stored-secret' });
      await update(key, `/nas_shares/${share.id}`, moved);
      expect(await storedPassword(), JSON.stringify(moved)).toBeNull();
    }
  });

  it('finding 3: the same values, a new password, a user or a key with get_password keep the stored one', async () => {
    const key = await t.bearer('nas_shares/*');
    await update(key, `/nas_shares/${share.id}`, { options: 'port=445', name: 'renamed' });
    expect(await storedPassword()).toBe('stored-secret');
    await update(key, `/nas_shares/${share.id}`, { options: 'port=4455', password: 'new-secret' });
    expect(await storedPassword()).toBe('new-secret');
    await update(t.basic, `/nas_shares/${share.id}`, { options: 'port=445' });
    expect(await storedPassword()).toBe('new-secret');
    const trusted = await t.bearer('nas_shares/*', 'nas_shares/get_password');
    await update(trusted, `/nas_shares/${share.id}`, { path: 'elsewhere' });
    expect(await storedPassword()).toBe('new-secret');
  });

  it('finding 3: a key without get_password that moves the NAS (host or type) clears the passwords of its shares', async () => {
    const key = await t.bearer('nas/*');
    await update(key, `/nas/${nas.id}`, { comment: 'same place' });
    expect(await storedPassword()).toBe('stored-secret');
    await update(key, `/nas/${nas.id}`, { host: 'attacker.example' });
    expect(await storedPassword()).toBeNull();
    await update(t.basic, `/nas_shares/${share.id}`, { password: 'stored-secret' });
    await update(key, `/nas/${nas.id}`, { type: 'smb_v1' });
    expect(await storedPassword()).toBeNull();
    await update(t.basic, `/nas_shares/${share.id}`, { password: 'stored-secret' });
    await update(t.basic, `/nas/${nas.id}`, { host: 'files.example' });
    expect(await storedPassword()).toBe('stored-secret');
  });
});
