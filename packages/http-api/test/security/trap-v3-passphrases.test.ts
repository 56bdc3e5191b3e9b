import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../src/testing/test-app.js';
import { expectModelError, readJson } from '../../src/testing/fixtures.js';

const api = (path: string) => `/api/v2${path}`;

interface TrapV3 {
  snmp_trap_id: string;
  version: string;
  security_name: string | null;
  auth_passphrase?: string | null;
  priv_passphrase?: string | null;
  messages?: string[];
}

const authPassphrase = 'auth-pass-Q7xLm-rest';
const privPassphrase = 'priv-pass-R2vNs-rest';
const v3 = {
  manager: '192.0.2.30:1162',
  version: 'v3',
  notify_type: 'inform',
  security_name: 'dms-notifier',
  security_level: 'authPriv',
  auth_protocol: 'SHA-512',
  auth_passphrase: authPassphrase,
  priv_protocol: 'AES-128',
  priv_passphrase: privPassphrase,
};

/**
 * Issue 24 through REST: a v3 trap target's passphrases in a body only for a caller holding
 * `traps / get_password` (a user; a key only through that literal action), 422 messages that name
 * what is allowed, SHA-1 flagged in `messages`, and no passphrase in an audit event.
 * The rules on both adapters: packages/core/src/services/trap-v3.test.ts.
 */
describe('issue 24: SNMPv3 trap targets through REST', () => {
  let t: TestApp;
  let trap: TrapV3;

  beforeEach(async () => {
    t = await createTestApp();
    const res = await t.call('POST', api('/snmp/traps'), { auth: t.basic, body: v3 });
    expect(res.status, await res.clone().text()).toBe(201);
    trap = await readJson<TrapV3>(res);
  });
  afterEach(() => t.close());

  const body = async (auth: string) => {
    const res = await t.call('GET', api(`/snmp/traps/${trap.snmp_trap_id}`), { auth });
    expect(res.status).toBe(200);
    return res.text();
  };

  it('answers the passphrases to a user and to a key holding traps / get_password, to no other key', async () => {
    expect(trap).toMatchObject({ auth_passphrase: authPassphrase, priv_passphrase: privPassphrase });
    for (const scopes of [
      ['traps/show', 'traps/get_password'],
      ['traps/show', '*/get_password'],
    ]) {
      expect(JSON.parse(await body(await t.bearer(...(scopes as [`${string}/${string}`])))), scopes.join(' ')).toMatchObject({
        auth_passphrase: authPassphrase,
      });
    }
    for (const scopes of [['traps/show'], ['traps/*'], ['*/*'], ['traps/show', 'nas_shares/get_password']]) {
      const text = await body(await t.bearer(...(scopes as [`${string}/${string}`])));
      expect(text, scopes.join(' ')).not.toContain(authPassphrase);
      expect(text, scopes.join(' ')).not.toContain(privPassphrase);
      expect(JSON.parse(text), scopes.join(' ')).not.toHaveProperty('auth_passphrase');
    }
    const listed = await t.call('GET', api('/snmp/traps'), { auth: await t.bearer('traps/index') });
    expect(await listed.text()).not.toContain(authPassphrase);
    // get_password alone reads nothing
    await expectModelError(
      await t.call('GET', api(`/snmp/traps/${trap.snmp_trap_id}`), { auth: await t.bearer('traps/get_password') }),
      403,
      'scope',
      'forbidden',
    );
  });

  it('refuses MD5, DES, short passphrases and unknown values with 422 naming what is allowed; flags SHA-1', async () => {
    const refused = async (patch: Record<string, unknown>) =>
      (await expectModelError(await t.call('POST', api('/snmp/traps'), { auth: t.basic, body: { ...v3, ...patch } }), 422)).messages;
    expect(await refused({ auth_protocol: 'MD5' })).toEqual(['auth_protocol is refused: MD5 is broken; use SHA-256 or SHA-512 (SHA-1 is allowed)']);
    expect(await refused({ priv_protocol: 'DES' })).toEqual(['priv_protocol is refused: DES is broken; use AES-128 or AES-256']);
    expect((await refused({ security_level: 'high' })).join()).toContain('noAuthNoPriv, authNoPriv, authPriv');
    expect((await refused({ priv_passphrase: 'seven77' })).join()).toMatch(/priv_passphrase.*8/);
    expect(
      await refused({
        version: 'v1',
        notify_type: 'inform',
        security_name: null,
        security_level: null,
        auth_protocol: null,
        auth_passphrase: null,
        priv_protocol: null,
        priv_passphrase: null,
      }),
    ).toEqual(['notify_type inform needs version v2c or v3 (SNMPv1 has no informs); with v1 the allowed value is trap']);

    const weak = await t.call('POST', api('/snmp/traps'), { auth: t.basic, body: { ...v3, auth_protocol: 'SHA-1' } });
    expect(weak.status).toBe(201);
    expect((await readJson<TrapV3>(weak)).messages).toEqual(['auth_protocol SHA-1 is allowed but weak; SHA-256 or SHA-512 is recommended']);
  });

  it('keeps the passphrases out of audit events; the stores read them back in clear', async () => {
    await t.call('PUT', api(`/snmp/traps/${trap.snmp_trap_id}`), { auth: t.basic, body: { auth_passphrase: 'rotated-auth-pass' } });
    const events = await t.call('GET', api('/audit_events?resource_type=traps'), { auth: t.basic });
    const text = await events.text();
    expect(events.status, text).toBe(200);
    for (const secret of [authPassphrase, privPassphrase, 'rotated-auth-pass']) expect(text).not.toContain(secret);
    expect(text).toContain('"auth_passphrase":"changed"');
    // sealed in the row: packages/core/src/services/trap-v3.test.ts reads the SQLite file
    const stored = await t.storage.traps.get(Number(trap.snmp_trap_id));
    expect(stored?.auth_passphrase).toBe('rotated-auth-pass');
  });
});
