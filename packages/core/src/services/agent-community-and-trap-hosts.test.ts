import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Principal } from '../scopes/principal.js';
import { systemPrincipal } from '../scopes/principal.js';
import { describeOnEachAdapter, testAdmin, type TestCore } from '../testing/core-on-each-adapter.js';
import { outcomeOf, refusalOf } from '../testing/domain-outcome.js';

/**
 * Findings 20.1 (who reads the agent's community: SnmpConfigService with canSeeAgentCommunity)
 * and 20.11 (where traps go: TrapService against share_test_allowed_hosts). The REST routes that
 * reach these rules: http-api src/security/snmp-community-and-trap-hosts.test.ts.
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
    await t.core.users.create(admin, { username: 'bob', password: 'user-password-1' });
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
    expect(await config(await user())).toEqual({ version: 'v2c', location: 'rack 9', contact: '' });
    // an admin's key: show and even */* do not reveal it; only the literal action does, as with share passwords
    expect((await config(await adminKey('server_configuration/show'))).community).toBeUndefined();
    expect((await config(await adminKey('*/*'))).community).toBeUndefined();
    // a non-admin's key never does, whatever it holds
    expect((await config(await userKey('server_configuration/show', 'server_configuration/get_password'))).community).toBeUndefined();
    // the update's answer is the same view
    expect(await t.core.snmpConfig.update(await user(), { contact: 'noc' })).toEqual({ version: 'v2c', location: 'rack 9', contact: 'noc' });
  });

  it('finding 20.1: an admin user, and an admin key holding server_configuration / get_password, read it', async () => {
    expect(await config(admin)).toEqual({ version: 'v2c', community, location: 'rack 9', contact: '' });
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
