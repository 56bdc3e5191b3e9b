import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAesGcmSecretBox } from '../adapters/aes-gcm/aes-gcm-secret-box.js';
import { openSqliteStorage } from '../adapters/sqlite/sqlite-storage.js';
import type { Principal } from '../scopes/principal.js';
import { systemPrincipal } from '../scopes/principal.js';
import { describeOnEachAdapter, testAdmin, type TestCore } from '../testing/core-on-each-adapter.js';
import { outcomeOf, refusalOf } from '../testing/domain-outcome.js';

/**
 * Issue 24, trap targets: the v3 fields, what each version and level takes, the passphrases
 * (sealed, shown only with `traps / get_password`, forgotten on a move), on both adapters.
 * The sends themselves: adapters/snmp/snmp-v3-trap-sender.test.ts against snmptrapd.
 */
type Scope = `${string}/${string}`;
const scopesOf = (scopes: Scope[]) => scopes.map((scope) => ({ controller: scope.split('/')[0]!, action: scope.split('/')[1]! }));

const v3 = {
  version: 'v3',
  manager: '127.0.0.1:1162',
  security_name: 'dms-notifier',
  security_level: 'authPriv',
  auth_protocol: 'SHA-256',
  auth_passphrase: 'auth-pass-Q7xLm',
  priv_protocol: 'AES-256',
  priv_passphrase: 'priv-pass-R2vNs',
  notify_type: 'inform',
};

describeOnEachAdapter('SNMPv3 trap targets', (open) => {
  let t: TestCore;
  let admin: Principal;
  beforeEach(async () => {
    t = await open();
    admin = await t.asUser(testAdmin.username, testAdmin.password);
  });
  afterEach(() => t.close());

  const key = async (...scopes: Scope[]) =>
    t.asBearer((await t.core.apiKeys.create(systemPrincipal, { name: `key ${scopes.join(' ')}`, api_key_scopes: scopesOf(scopes) })).key);
  const messagesOf = async (body: unknown) => (await refusalOf(t.core.traps.create(admin, body))).messages;

  it('creates a v3 inform target; a user sees the passphrases, a key only with traps / get_password granted literally', async () => {
    const created = await t.core.traps.create(admin, v3);
    expect(created).toMatchObject({ ...v3, community: 'public', activation: 1 });
    expect(created).not.toHaveProperty('messages');

    const shown = (principal: Principal) => t.core.traps.show(principal, created.snmp_trap_id);
    for (const scopes of [['traps/show'], ['traps/*'], ['*/*'], ['traps/show', 'nas_shares/get_password']] as Scope[][]) {
      const view = await shown(await key(...scopes));
      expect(view, scopes.join(' ')).toMatchObject({ security_name: 'dms-notifier', auth_protocol: 'SHA-256', priv_protocol: 'AES-256' });
      expect(view, scopes.join(' ')).not.toHaveProperty('auth_passphrase');
      expect(view, scopes.join(' ')).not.toHaveProperty('priv_passphrase');
    }
    for (const scopes of [
      ['traps/show', 'traps/get_password'],
      ['traps/show', '*/get_password'],
    ] as Scope[][]) {
      expect(await shown(await key(...scopes)), scopes.join(' ')).toMatchObject({ auth_passphrase: v3.auth_passphrase, priv_passphrase: v3.priv_passphrase });
    }
    const listed = await t.core.traps.list(await key('traps/index'), {});
    expect(listed.traps[0]).not.toHaveProperty('auth_passphrase');
    expect((await t.core.traps.list(admin, { notify_type: ['inform'] })).count).toBe(1);
  });

  it('refuses MD5, DES, a short passphrase and unknown levels, naming what is allowed', async () => {
    expect(await messagesOf({ ...v3, auth_protocol: 'MD5' })).toEqual(['auth_protocol is refused: MD5 is broken; use SHA-256 or SHA-512 (SHA-1 is allowed)']);
    expect(await messagesOf({ ...v3, priv_protocol: 'DES' })).toEqual(['priv_protocol is refused: DES is broken; use AES-128 or AES-256']);
    expect((await messagesOf({ ...v3, priv_protocol: 'AES-192' })).join()).toMatch(/AES-128, AES-256/);
    expect((await messagesOf({ ...v3, security_level: 'authpriv' })).join()).toMatch(/noAuthNoPriv.*authNoPriv.*authPriv/);
    expect((await messagesOf({ ...v3, notify_type: 'acknowledged' })).join()).toMatch(/trap.*inform/);
    expect((await messagesOf({ ...v3, version: 'v3c' })).join()).toMatch(/v1.*v2c.*v3/);
    expect((await messagesOf({ ...v3, auth_passphrase: 'short' })).join()).toMatch(/auth_passphrase.*8/);
  });

  it('checks the record as a whole: what a level needs, no v3 field below v3, no inform with v1', async () => {
    const { auth_passphrase: _a, priv_protocol: _p, ...missing } = v3;
    expect(await messagesOf(missing)).toEqual([
      "auth_passphrase can't be blank at security_level authPriv",
      "priv_protocol can't be blank at security_level authPriv",
    ]);
    // v3 without a level is authPriv, the safe default
    const { security_level: _l, ...noLevel } = v3;
    expect(await t.core.traps.create(admin, noLevel)).toMatchObject({ security_level: 'authPriv' });
    expect(await messagesOf({ ...v3, security_name: undefined })).toEqual(["security_name can't be blank with version v3"]);
    expect(await messagesOf({ ...v3, security_level: 'authNoPriv' })).toEqual([
      'priv_protocol is not used at security_level authNoPriv (send null or leave it out)',
      'priv_passphrase is not used at security_level authNoPriv (send null or leave it out)',
    ]);
    expect(await messagesOf({ manager: 'nms', security_name: 'x' })).toEqual([
      'security_name is used only with version v3 (send null or leave it out with v2c)',
    ]);
    expect(await messagesOf({ manager: 'nms', version: 'v1', notify_type: 'inform' })).toEqual([
      'notify_type inform needs version v2c or v3 (SNMPv1 has no informs); with v1 the allowed value is trap',
    ]);
    // v1 and v2c answers gain notify_type and null v3 fields, nothing else
    expect(await t.core.traps.create(admin, { manager: 'nms' })).toEqual({
      snmp_trap_id: expect.any(String),
      activation: 1,
      version: 'v2c',
      manager: 'nms',
      community: 'public',
      severity_low: 1,
      severity_high: 5,
      notify_type: 'trap',
      security_name: null,
      security_level: null,
      auth_protocol: null,
      auth_passphrase: null,
      priv_protocol: null,
      priv_passphrase: null,
    });
  });

  it('flags SHA-1 in the answer’s messages; lowering the level or leaving v3 drops what is no longer used', async () => {
    const weak = await t.core.traps.create(admin, { ...v3, auth_protocol: 'SHA-1' });
    expect(weak.messages).toEqual(['auth_protocol SHA-1 is allowed but weak; SHA-256 or SHA-512 is recommended']);
    expect((await t.core.traps.show(admin, weak.snmp_trap_id)).messages).toHaveLength(1);

    const lowered = await t.core.traps.update(admin, weak.snmp_trap_id, { security_level: 'authNoPriv', auth_protocol: 'SHA-512' });
    expect(lowered).toMatchObject({
      security_level: 'authNoPriv',
      auth_protocol: 'SHA-512',
      priv_protocol: null,
      priv_passphrase: null,
      auth_passphrase: v3.auth_passphrase,
    });
    expect(lowered).not.toHaveProperty('messages');
    const v2c = await t.core.traps.update(admin, weak.snmp_trap_id, { version: 'v2c' });
    expect(v2c).toMatchObject({ version: 'v2c', notify_type: 'inform', security_name: null, auth_passphrase: null, auth_protocol: null });
    // a GET body sent back unchanged passes (read-only messages included)
    const again = await t.core.traps.create(admin, { ...v3, auth_protocol: 'SHA-1' });
    expect(await outcomeOf(t.core.traps.update(admin, again.snmp_trap_id, again))).toBe('ok');
  });

  it('forgets the passphrases when a caller who cannot read them moves the target; the audit says "changed", never a value', async () => {
    const created = await t.core.traps.create(admin, v3);
    const mover = await key('traps/update', 'traps/show');
    const moved = await t.core.traps.update(mover, created.snmp_trap_id, { manager: '127.0.0.2:1162' });
    expect(moved).not.toHaveProperty('auth_passphrase');
    expect(await t.core.traps.show(admin, created.snmp_trap_id)).toMatchObject({ manager: '127.0.0.2:1162', auth_passphrase: null, priv_passphrase: null });
    // set again, it is kept; a user (who may read it) moves it without losing it
    await t.core.traps.update(mover, created.snmp_trap_id, { auth_passphrase: 'new-auth-pass', priv_passphrase: 'new-priv-pass' });
    await t.core.traps.update(admin, created.snmp_trap_id, { manager: '127.0.0.3:1162' });
    expect(await t.core.traps.show(admin, created.snmp_trap_id)).toMatchObject({ auth_passphrase: 'new-auth-pass', priv_passphrase: 'new-priv-pass' });

    const events = (await t.core.auditEvents.list(admin, { sort_by: ['id'] })).audit_events.filter((event) => event.resource?.type === 'traps');
    const text = JSON.stringify(events);
    for (const secret of [v3.auth_passphrase, v3.priv_passphrase, 'new-auth-pass', 'new-priv-pass']) expect(text).not.toContain(secret);
    expect(events[0]?.changes).toMatchObject({ auth_passphrase: 'changed', priv_passphrase: 'changed', security_name: { from: null, to: 'dms-notifier' } });
    expect(events[1]?.changes).toMatchObject({
      manager: { from: '127.0.0.1:1162', to: '127.0.0.2:1162' },
      auth_passphrase: 'changed',
      priv_passphrase: 'changed',
    });
  });
});

describe('SNMPv3 passphrases at rest (sqlite file)', () => {
  it('seals both passphrases in the row and leaves no clear copy in the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dms-trap-v3-'));
    const file = join(dir, 'dms.sqlite');
    try {
      const storage = openSqliteStorage({ file, secrets: createAesGcmSecretBox(randomBytes(32)) });
      await storage.migrate();
      const created = await storage.traps.create({
        activation: 1,
        version: 'v3',
        manager: 'nms',
        community: 'public',
        severity_low: 1,
        severity_high: 5,
        security_name: 'u',
        security_level: 'authPriv',
        auth_protocol: 'SHA-256',
        auth_passphrase: v3.auth_passphrase,
        priv_protocol: 'AES-128',
        priv_passphrase: v3.priv_passphrase,
      });
      expect(await storage.traps.get(created.id)).toMatchObject({ auth_passphrase: v3.auth_passphrase, priv_passphrase: v3.priv_passphrase });
      await storage.close();
      const raw = new BetterSqlite3(file, { readonly: true });
      const row = raw.prepare('select auth_passphrase, priv_passphrase from snmp_traps').get() as Record<string, string>;
      raw.close();
      expect(row['auth_passphrase']).toMatch(/^v1:/);
      expect(row['priv_passphrase']).toMatch(/^v1:/);
      const bytes = readFileSync(file).toString('latin1');
      expect(bytes).not.toContain(v3.auth_passphrase);
      expect(bytes).not.toContain(v3.priv_passphrase);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
