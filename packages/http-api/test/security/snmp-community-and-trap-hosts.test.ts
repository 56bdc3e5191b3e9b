import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemPrincipal } from '@dms/core';
import { createTestApp, type TestApp } from '../../src/testing/test-app.js';
import { addUser, expectModelError, readJson, type Trap } from '../../src/testing/fixtures.js';

const api = (path: string) => `/api/v2${path}`;
const basicOf = (username: string, password: string) => `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;

interface SnmpConfigView {
  version: string;
  community?: string;
  location: string;
  contact: string;
}

/**
 * Findings 20.1 (who reads the agent's community) and 20.11 (where traps go) through REST:
 * that the routes reach the rules and answer them with the right status and model_error. Each
 * branch of the rules is proved on both storage adapters by the core:
 * packages/core/src/services/agent-community-and-trap-hosts.test.ts.
 */
describe('security review 2: the SNMP agent community and trap managers', () => {
  let t: TestApp;
  let user: string;
  const community = 'agent-ro-s3cret';

  beforeEach(async () => {
    t = await createTestApp();
    // A non-admin who may show and update the configuration, but holds no get_password (docs/api.md#roles).
    const role = await t.core.roles.create(systemPrincipal, {
      name: 'snmp-keeper',
      scopes: [{ controller: 'server_configuration', action: '*' }],
    });
    const bob = await addUser(t, { password: 'user-password-1', role: role.name });
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

  it('GET and PUT /snmp/server_configuration leave the community out of the body for whoever may not read it', async () => {
    // The agent's other fields (address, port, v3 users, engine id) are the agent tests' to check.
    const seen = await config(user);
    expect(seen).not.toHaveProperty('community');
    expect(seen).toMatchObject({ version: 'v2c', location: 'rack 9', contact: '' });
    expect(await config(t.basic)).toMatchObject({ version: 'v2c', community, location: 'rack 9', contact: '' });
    const put = await t.call('PUT', api('/snmp/server_configuration'), { auth: user, body: { contact: 'noc' } });
    expect(put.status).toBe(200);
    const updated = await readJson<SnmpConfigView>(put);
    expect(updated).not.toHaveProperty('community');
    expect(updated).toMatchObject({ version: 'v2c', location: 'rack 9', contact: 'noc' });
  });

  const allow = async (share_test_allowed_hosts: string[]) => {
    const res = await t.call('PUT', api('/settings'), { auth: t.basic, body: { share_test_allowed_hosts } });
    expect(res.status, await res.clone().text()).toBe(200);
  };
  const createTrap = (body: Record<string, unknown>) => t.call('POST', api('/snmp/traps'), { auth: t.basic, body });

  it('POST and PUT /snmp/traps and POST /snmp/traps/{id}/test answer an excluded manager with a 422 on manager naming the setting', async () => {
    await allow(['127.0.0.1']);
    const created = await createTrap({ manager: '127.0.0.1:1162' });
    expect(created.status).toBe(201);
    const trap = await readJson<Trap>(created);
    await allow(['192.0.2.0/24']);
    const refused = await expectModelError(await createTrap({ manager: '127.0.0.1:1162' }), 422, 'manager', 'forbidden');
    expect(JSON.stringify(refused)).toContain('share_test_allowed_hosts');
    await expectModelError(
      await t.call('PUT', api(`/snmp/traps/${trap.snmp_trap_id}`), { auth: t.basic, body: { manager: '127.0.0.2' } }),
      422,
      'manager',
      'forbidden',
    );
    const test = await expectModelError(await t.call('POST', api(`/snmp/traps/${trap.snmp_trap_id}/test`), { auth: t.basic }), 422, 'manager', 'forbidden');
    expect(JSON.stringify(test)).toContain('share_test_allowed_hosts');
    // with an allowed host, the test goes on to the notifier (absent in the test app: 503)
    await allow([]);
    expect((await t.call('POST', api(`/snmp/traps/${trap.snmp_trap_id}/test`), { auth: t.basic })).status).toBe(503);
  });
});
