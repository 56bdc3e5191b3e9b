import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Principal } from '../scopes/principal.js';
import { systemPrincipal } from '../scopes/principal.js';
import { describeOnEachAdapter, testAdmin, type TestCore } from '../testing/core-on-each-adapter.js';
import { outcomeOf, refusalOf } from '../testing/domain-outcome.js';

/** The agent's settings of a service opened without DMS_SNMP_AGENT_PORT, never started (no engine yet). */
const agentDefaults = { agent_enabled: false, agent_address: '127.0.0.1', agent_port: 161, users: [], engine_id: null };

/**
 * Findings 20.1 (who reads the agent's community: SnmpConfigService with canSeeAgentCommunity)
 * and 20.11 (where traps go: TrapService against share_test_allowed_hosts). The REST routes that
 * reach these rules: http-api test/security/snmp-community-and-trap-hosts.test.ts.
 */
type Scope = `${string}/${string}`;
const scopesOf = (scopes: Scope[]) => scopes.map((scope) => ({ controller: scope.split('/')[0], action: scope.split('/')[1] }));

describeOnEachAdapter('the SNMP agent community and trap managers', (open) => {
  let t: TestCore;
  let admin: Principal;
  const community = 'agent-ro-s3cret';
  const user = () => t.asUser('bob', 'user-password-1');
  beforeEach(async () => {
    t = await open();
    admin = await t.asUser(testAdmin.username, testAdmin.password);
    // A non-admin who manages the SNMP side, with no get_password (docs/api.md#roles).
    await t.core.roles.create(admin, { name: 'snmp-keeper', scopes: scopesOf(['server_configuration/*', 'traps/*', 'api_keys/*']) });
    await t.core.users.create(admin, { username: 'bob', password: 'user-password-1', role: 'snmp-keeper' });
    await t.core.snmpConfig.update(admin, { community, location: 'rack 9' });
  });
  afterEach(() => t.close());

  const config = (principal: Principal) => t.core.snmpConfig.show(principal);
  /** A key the system makes (CLI, console): an admin's key. */
  const adminKey = async (...scopes: Scope[]) =>
    t.asBearer((await t.core.apiKeys.create(systemPrincipal, { name: 'test key', api_key_scopes: scopesOf(scopes) })).key);
  /** A key the non-admin user makes for themselves, with these scopes. */
  const userKey = async (...scopes: Scope[]) => t.asBearer((await t.core.apiKeys.create(await user(), { name: 'mine', api_key_scopes: scopesOf(scopes) })).key);

  it('finding 20.1: a non-admin user, or a key without server_configuration / get_password, does not read the agent community', async () => {
    expect(await config(await user())).toEqual({ ...agentDefaults, version: 'v2c', location: 'rack 9', contact: '' });
    // an admin's key: show and even */* do not reveal it; only the literal action does, as with share passwords
    expect((await config(await adminKey('server_configuration/show'))).community).toBeUndefined();
    expect((await config(await adminKey('*/*'))).community).toBeUndefined();
    // a non-admin's key never does, whatever it holds
    expect((await config(await userKey('server_configuration/show', 'server_configuration/get_password'))).community).toBeUndefined();
    // the update's answer is the same view
    expect(await t.core.snmpConfig.update(await user(), { contact: 'noc' })).toEqual({ ...agentDefaults, version: 'v2c', location: 'rack 9', contact: 'noc' });
  });

  it('issue 24: v3 passphrases follow the community: absent without server_configuration / get_password, SHA-1 flagged', async () => {
    const sha1 = { security_name: 'old-nms', security_level: 'authNoPriv', auth_protocol: 'SHA-1', auth_passphrase: 'old-auth-pass' };
    const answer = await t.core.snmpConfig.update(admin, { users: [sha1] });
    expect(answer.users).toEqual([{ ...sha1, priv_protocol: null, priv_passphrase: null }]);
    expect(answer.messages).toEqual(['users[0].auth_protocol SHA-1 is allowed but weak; SHA-256 or SHA-512 is recommended']);
    expect((await config(await user())).users).toEqual([
      { security_name: 'old-nms', security_level: 'authNoPriv', auth_protocol: 'SHA-1', priv_protocol: null },
    ]);
    expect(JSON.stringify(await config(await adminKey('*/*')))).not.toContain('old-auth-pass');
    // the list sent back without passphrases keeps them
    await t.core.snmpConfig.update(await user(), { users: [{ security_name: 'old-nms', security_level: 'authNoPriv', auth_protocol: 'SHA-256' }] });
    expect((await config(admin)).users[0]).toMatchObject({ auth_protocol: 'SHA-256', auth_passphrase: 'old-auth-pass' });
  });

  it('issue 24: agent settings and users are validated with messages naming what is allowed', async () => {
    const refused = (body: object) =>
      t.core.snmpConfig.update(admin, body).then(
        () => [],
        (error: { messages: string[] }) => error.messages,
      );
    expect(await refused({ agent_port: 70000 })).toEqual(['agent_port must be between 1 and 65535']);
    expect((await refused({ agent_address: 'example.org' }))[0]).toMatch(/agent_address must be an IPv4 or IPv6 address/);
    expect(
      (await refused({ users: [{ security_name: 'a', security_level: 'authPriv', auth_protocol: 'MD5', auth_passphrase: 'long-enough' }] })).join('\n'),
    ).toMatch(/users\[0\]\.auth_protocol is refused: MD5 is broken/);
    expect(await refused({ users: [{ security_name: 'a', security_level: 'authPriv', auth_protocol: 'SHA-256', auth_passphrase: 'long-enough' }] })).toEqual([
      "users[0].priv_protocol can't be blank at security_level authPriv",
      "users[0].priv_passphrase can't be blank at security_level authPriv",
    ]);
    const user = { security_name: 'a', security_level: 'noAuthNoPriv' };
    expect(await refused({ users: [user, user] })).toEqual(['users[1].security_name "a" is taken by another user of the list']);
    expect(await refused({ engine_id: '00' })).toEqual([]);
  });

  it('finding 20.1: an admin user, and an admin key holding server_configuration / get_password, read it', async () => {
    expect(await config(admin)).toEqual({ ...agentDefaults, version: 'v2c', community, location: 'rack 9', contact: '' });
    expect((await config(await adminKey('server_configuration/show', 'server_configuration/get_password'))).community).toBe(community);
    expect((await config(await adminKey('server_configuration/show', '*/get_password'))).community).toBe(community);
  });

  it('finding 20.1: who may update the configuration may set the community without reading it; a GET body sent back keeps it', async () => {
    const mine = await config(await user());
    expect(await outcomeOf(t.core.snmpConfig.update(await user(), mine))).toBe('ok');
    expect((await config(admin)).community).toBe(community);
    expect(await t.core.snmpConfig.update(await user(), { community: 'rotated-by-bob' })).not.toHaveProperty('community');
    expect((await config(admin)).community).toBe('rotated-by-bob');
  });

  const allow = (share_test_allowed_hosts: string[]) => t.core.settings.update(admin, { share_test_allowed_hosts });
  const createTrap = (body: Record<string, unknown>) => t.core.traps.create(admin, body);
  /** A refusal with a `forbidden` detail on manager. */
  const forbiddenManager = async (call: Promise<unknown>) => {
    const error = await refusalOf(call);
    expect(error.code).toBe('validation');
    expect(error.details['manager']?.map((detail) => detail.error)).toContain('forbidden');
    return error;
  };

  it('finding 20.11: a trap target whose manager host share_test_allowed_hosts excludes is refused, 422 naming the setting', async () => {
    await allow(['192.0.2.0/24', 'nms.example.org']);
    const refused = await forbiddenManager(createTrap({ manager: '127.0.0.1:1162' }));
    expect(JSON.stringify({ details: refused.details, messages: refused.messages })).toContain('share_test_allowed_hosts');
    await forbiddenManager(createTrap({ manager: '[::1]' }));

    const trap = await createTrap({ manager: '192.0.2.10:1162' });
    expect(await outcomeOf(createTrap({ manager: 'nms.example.org' }))).toBe('ok');

    await forbiddenManager(t.core.traps.update(admin, trap.snmp_trap_id, { manager: '127.0.0.1' }));
    expect((await t.core.traps.show(admin, trap.snmp_trap_id)).manager).toBe('192.0.2.10:1162');
  });

  it('finding 20.11: a test trap to a target the list no longer allows is refused (422), and the target can still be deactivated', async () => {
    await allow(['127.0.0.1']);
    const trap = await createTrap({ manager: '127.0.0.1:1162' });
    await allow(['192.0.2.0/24']);
    const refused = await forbiddenManager(t.core.traps.test(admin, trap.snmp_trap_id));
    expect(refused.messages.join(' ')).toContain('share_test_allowed_hosts');
    // an edit that does not move it stays possible
    expect(await outcomeOf(t.core.traps.update(admin, trap.snmp_trap_id, { activation: 0 }))).toBe('ok');
    // with an allowed host, the test goes on to the notifier (absent in the test core: unavailable)
    await allow([]);
    expect(await outcomeOf(t.core.traps.test(admin, trap.snmp_trap_id))).toBe('unavailable');
  });
});
