import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { addUser, expectModelError, readJson, type Trap } from '../testing/fixtures.js';

const api = (path: string) => `/api/v2${path}`;
const basicOf = (username: string, password: string) => `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;

interface SnmpConfigView {
  version: string;
  community?: string;
  location: string;
  contact: string;
}

/** Findings 20.1 (who reads the agent's community) and 20.11 (where traps go), through REST on both adapters. */
describe('security review 2: the SNMP agent community and trap managers', () => {
  let t: TestApp;
  let user: string;
  const community = 'agent-ro-s3cret';

  beforeEach(async () => {
    t = await createTestApp();
    const bob = await addUser(t, { password: 'user-password-1' });
    user = basicOf(bob.username, 'user-password-1');
    const res = await t.call('PUT', api('/snmp/server_configuration'), { auth: t.basic, body: { community, location: 'rack 9' } });
    expect(res.status, await res.clone().text()).toBe(200);
  });
  afterEach(() => t.close());

  const config = async (auth: string) => {
    const res = await t.call('GET', api('/snmp/server_configuration'), { auth });
    expect(res.status, await res.clone().text()).toBe(200);
    return readJson<SnmpConfigView>(res);
  };
  /** A key the non-admin user makes for themselves, with these scopes. */
  const userKey = async (...scopes: string[]) => {
    const api_key_scopes = scopes.map((scope) => ({ controller: scope.split('/')[0], action: scope.split('/')[1] }));
    const res = await t.call('POST', api('/api_keys'), { auth: user, body: { name: 'mine', api_key_scopes } });
    expect(res.status, await res.clone().text()).toBe(201);
    return `Bearer ${(await readJson<{ key: string }>(res)).key}`;
  };

  it('finding 20.1: a non-admin user, or a key without server_configuration / get_password, does not read the agent community', async () => {
    expect(await config(user)).toEqual({ version: 'v2c', location: 'rack 9', contact: '' });
    // an admin's key: show and even */* do not reveal it; only the literal action does, as with share passwords
    expect((await config(await t.bearer('server_configuration/show'))).community).toBeUndefined();
    expect((await config(await t.bearer('*/*'))).community).toBeUndefined();
    // a non-admin's key never does, whatever it holds
    expect((await config(await userKey('server_configuration/show', 'server_configuration/get_password'))).community).toBeUndefined();
    // the PUT answer is the same view
    const put = await t.call('PUT', api('/snmp/server_configuration'), { auth: user, body: { contact: 'noc' } });
    expect(put.status).toBe(200);
    expect(await readJson<SnmpConfigView>(put)).toEqual({ version: 'v2c', location: 'rack 9', contact: 'noc' });
  });

  it('finding 20.1: an admin user, and an admin key holding server_configuration / get_password, read it', async () => {
    expect(await config(t.basic)).toEqual({ version: 'v2c', community, location: 'rack 9', contact: '' });
    expect((await config(await t.bearer('server_configuration/show', 'server_configuration/get_password'))).community).toBe(community);
    expect((await config(await t.bearer('server_configuration/show', '*/get_password'))).community).toBe(community);
  });

  it('finding 20.1: who may update the configuration may set the community without reading it; a GET body sent back keeps it', async () => {
    const mine = await config(user);
    expect((await t.call('PUT', api('/snmp/server_configuration'), { auth: user, body: mine })).status).toBe(200);
    expect((await config(t.basic)).community).toBe(community);
    const res = await t.call('PUT', api('/snmp/server_configuration'), { auth: user, body: { community: 'rotated-by-bob' } });
    expect(res.status).toBe(200);
    expect(await readJson<SnmpConfigView>(res)).not.toHaveProperty('community');
    expect((await config(t.basic)).community).toBe('rotated-by-bob');
  });

  const allow = async (share_test_allowed_hosts: string[]) => {
    const res = await t.call('PUT', api('/settings'), { auth: t.basic, body: { share_test_allowed_hosts } });
    expect(res.status, await res.clone().text()).toBe(200);
  };
  const createTrap = (body: Record<string, unknown>) => t.call('POST', api('/snmp/traps'), { auth: t.basic, body });

  it('finding 20.11: a trap target whose manager host share_test_allowed_hosts excludes is refused, 422 naming the setting', async () => {
    await allow(['192.0.2.0/24', 'nms.example.org']);
    const refused = await expectModelError(await createTrap({ manager: '127.0.0.1:1162' }), 422, 'manager', 'forbidden');
    expect(JSON.stringify(refused)).toContain('share_test_allowed_hosts');
    await expectModelError(await createTrap({ manager: '[::1]' }), 422, 'manager', 'forbidden');

    const created = await createTrap({ manager: '192.0.2.10:1162' });
    expect(created.status).toBe(201);
    const trap = await readJson<Trap>(created);
    expect((await createTrap({ manager: 'nms.example.org' })).status).toBe(201);

    const moved = await t.call('PUT', api(`/snmp/traps/${trap.snmp_trap_id}`), { auth: t.basic, body: { manager: '127.0.0.1' } });
    await expectModelError(moved, 422, 'manager', 'forbidden');
    expect((await readJson<Trap>(await t.call('GET', api(`/snmp/traps/${trap.snmp_trap_id}`), { auth: t.basic }))).manager).toBe('192.0.2.10:1162');
  });

  it('finding 20.11: a test trap to a target the list no longer allows is refused (422), and the target can still be deactivated', async () => {
    await allow(['127.0.0.1']);
    const trap = await readJson<Trap>(await createTrap({ manager: '127.0.0.1:1162' }));
    await allow(['192.0.2.0/24']);
    const test = await t.call('POST', api(`/snmp/traps/${trap.snmp_trap_id}/test`), { auth: t.basic });
    const body = await expectModelError(test, 422, 'manager', 'forbidden');
    expect(JSON.stringify(body)).toContain('share_test_allowed_hosts');
    // an edit that does not move it stays possible
    const deactivated = await t.call('PUT', api(`/snmp/traps/${trap.snmp_trap_id}`), { auth: t.basic, body: { activation: 0 } });
    expect(deactivated.status).toBe(200);
    // with an allowed host, the test goes on to the notifier (absent in the test app: 503)
    await allow([]);
    expect((await t.call('POST', api(`/snmp/traps/${trap.snmp_trap_id}/test`), { auth: t.basic })).status).toBe(503);
  });
});
