import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../src/testing/test-app.js';
import { addNas, addShare, readJson, type Nas, type NasShare } from '../../src/testing/fixtures.js';

const api = (path: string) => `/api/v2${path}`;

/**
 * Security review, finding 3 (docs/decisions/037-stored-passwords-follow-their-target.md), through REST: that PUT of a share and of its NAS
 * reach the rule. Each branch of it is proved on both storage adapters by the core:
 * packages/core/src/services/stored-password-replay.test.ts.
 */
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

  it('PUT /nas_shares/{id} and PUT /nas/{id} by a key without get_password that move the target answer 200 and forget the stored password', async () => {
    await update(await t.bearer('nas_shares/*'), `/nas_shares/${share.id}`, { options: 'port=4455' });
    expect(await storedPassword()).toBeNull();
    await update(t.basic, `/nas_shares/${share.id}`, { password: 'stored-secret' });
    await update(await t.bearer('nas/*'), `/nas/${nas.id}`, { host: 'attacker.example' });
    expect(await storedPassword()).toBeNull();
  });
});
