import { createSocket, type Socket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEvent } from '../../domain/events.js';
import { isInformNotAcknowledged, type TrapTarget } from '../../ports/notifier.js';
import type { AuthProtocol, PrivProtocol } from '../../domain/snmp-v3-security.js';
import { requireTools } from '../../testing/require-tool.js';
import { freeUdpPort } from '../../testing/snmp-tool-env.js';
import { SnmptrapdPeer, type ReceivedTrap } from '../../testing/snmptrapd-peer.js';
import { NetSnmpTrapSender } from './snmp-trap-sender.js';

/**
 * Issue 24, trap targets: v3 traps and informs from net-snmp to Debian's snmptrapd. Traps are
 * sent from dms's engine, which snmptrapd knows through `createUser -e`; informs discover
 * snmptrapd's own engine, so their users are created without -e.
 */
const tools = requireTools(['snmptrapd'], 'bash .ci/setup-snmp.sh');

const engineId = '80007a6905a1b2c3d4e5f60718';
const at = new Date('2026-11-25T19:00:00.000Z');
const message = (trap: ReceivedTrap) => trap.varbinds.find((v) => v.startsWith('DMS-MIB::dmsEventMessage.0'))?.split('STRING: ')[1];

/** One USM user per auth/priv pair net-snmp supports (and dms allows), plus the lower levels. */
const pairs: Array<{ user: string; auth: AuthProtocol; priv: PrivProtocol; netSnmpAuth: string; netSnmpPriv: string }> = [
  { user: 'sha256-aes128', auth: 'SHA-256', priv: 'AES-128', netSnmpAuth: 'SHA-256', netSnmpPriv: 'AES' },
  { user: 'sha256-aes256', auth: 'SHA-256', priv: 'AES-256', netSnmpAuth: 'SHA-256', netSnmpPriv: 'AES-256' },
  { user: 'sha512-aes128', auth: 'SHA-512', priv: 'AES-128', netSnmpAuth: 'SHA-512', netSnmpPriv: 'AES' },
  { user: 'sha512-aes256', auth: 'SHA-512', priv: 'AES-256', netSnmpAuth: 'SHA-512', netSnmpPriv: 'AES-256' },
  { user: 'sha1-aes128', auth: 'SHA-1', priv: 'AES-128', netSnmpAuth: 'SHA', netSnmpPriv: 'AES' },
  { user: 'sha1-aes256', auth: 'SHA-1', priv: 'AES-256', netSnmpAuth: 'SHA', netSnmpPriv: 'AES-256' },
];
const authPass = 'auth-pass-Q7xLm';
const privPass = 'priv-pass-R2vNs';

function v3Target(manager: string, fields: Partial<TrapTarget>): TrapTarget {
  return {
    id: 1,
    version: 'v3',
    manager,
    community: 'public',
    notify_type: 'trap',
    security_level: 'authPriv',
    auth_passphrase: authPass,
    priv_passphrase: privPass,
    ...fields,
  };
}

describe.skipIf(!tools.ok)('SNMPv3 traps and informs to snmptrapd', () => {
  const trapd = new SnmptrapdPeer();
  let manager: string;
  const sender = new NetSnmpTrapSender({ engineId: () => engineId, inform: { timeoutMs: 500, retries: 2, backoff: 2 } });

  beforeAll(async () => {
    manager = `127.0.0.1:${await freeUdpPort()}`;
    const users = pairs.flatMap(({ user, netSnmpAuth, netSnmpPriv }) => [
      // traps: dms's engine is authoritative; informs: snmptrapd's own
      `createUser -e 0x${engineId} ${user} ${netSnmpAuth} ${authPass} ${netSnmpPriv} ${privPass}`,
      `createUser ${user} ${netSnmpAuth} ${authPass} ${netSnmpPriv} ${privPass}`,
      `authUser log ${user}`,
    ]);
    await trapd.start({
      snmptrapd: tools.paths['snmptrapd']!,
      communities: [],
      listen: [`udp:${manager}`],
      config: [
        ...users,
        `createUser -e 0x${engineId} auth-only SHA-512 ${authPass}`,
        `createUser auth-only SHA-512 ${authPass}`,
        'authUser log auth-only auth',
        `createUser -e 0x${engineId} nobody-in-particular`,
        'authUser log nobody-in-particular noauth',
      ],
    });
  });
  afterAll(async () => {
    sender.close();
    await trapd.stop();
  });

  for (const { user, auth, priv } of pairs) {
    it(`delivers an authPriv trap and gets an inform acknowledged with ${auth} and ${priv}`, async () => {
      const target = v3Target(manager, { security_name: user, auth_protocol: auth, priv_protocol: priv });
      await sender.send(target, makeEvent('test_trap', `trap as ${user}`, at));
      const trap = await trapd.waitFor((t) => message(t) === `trap as ${user}`);
      expect(trap).toMatchObject({ version: 3, user, inform: false });

      // resolves only once snmptrapd acknowledged it
      await sender.send({ ...target, notify_type: 'inform' }, makeEvent('test_trap', `inform as ${user}`, at));
      expect(await trapd.waitFor((t) => message(t) === `inform as ${user}`)).toMatchObject({ version: 3, user, inform: true });
    });
  }

  it('delivers authNoPriv and noAuthNoPriv traps', async () => {
    await sender.send(
      v3Target(manager, { security_name: 'auth-only', security_level: 'authNoPriv', auth_protocol: 'SHA-512', priv_passphrase: null }),
      makeEvent('test_trap', 'auth only', at),
    );
    await sender.send(
      v3Target(manager, { security_name: 'nobody-in-particular', security_level: 'noAuthNoPriv', auth_passphrase: null, priv_passphrase: null }),
      makeEvent('test_trap', 'no auth', at),
    );
    expect(await trapd.waitFor((t) => message(t) === 'auth only')).toMatchObject({ version: 3, user: 'auth-only' });
    expect(await trapd.waitFor((t) => message(t) === 'no auth')).toMatchObject({ version: 3, user: 'nobody-in-particular' });
  });

  it('is not received with a wrong passphrase, nor acknowledged as an inform', async () => {
    const wrong = v3Target(manager, {
      security_name: 'sha256-aes128',
      auth_protocol: 'SHA-256',
      priv_protocol: 'AES-128',
      auth_passphrase: 'not-the-passphrase',
    });
    await sender.send(wrong, makeEvent('test_trap', 'wrong passphrase', at));
    const inform = sender.send({ ...wrong, notify_type: 'inform' }, makeEvent('test_trap', 'wrong passphrase inform', at));
    const error = await inform.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isInformNotAcknowledged(error)).toBe(true);
    // a barrier: a good trap sent after the bad ones is logged after them, had they been logged
    await sender.send(
      v3Target(manager, { security_name: 'sha256-aes128', auth_protocol: 'SHA-256', priv_protocol: 'AES-128' }),
      makeEvent('test_trap', 'barrier', at),
    );
    await trapd.waitFor((t) => message(t) === 'barrier');
    expect(trapd.traps.map(message)).not.toContain('wrong passphrase');
    expect(trapd.traps.map(message)).not.toContain('wrong passphrase inform');
  });

  it('re-sends an inform to a silent port with backoff, then reports it not acknowledged', async () => {
    const silent: Socket = createSocket('udp4');
    const arrivals: Buffer[] = [];
    silent.on('message', (datagram) => arrivals.push(datagram));
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    try {
      const target = v3Target(`127.0.0.1:${silent.address().port}`, {
        security_name: 'sha256-aes128',
        auth_protocol: 'SHA-256',
        priv_protocol: 'AES-128',
        notify_type: 'inform',
      });
      const error = await sender.send(target, makeEvent('test_trap', 'nobody listens', at)).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isInformNotAcknowledged(error)).toBe(true);
      expect((error as Error).message).toBe(`inform to ${target.manager} not acknowledged after 3 attempt(s): no acknowledgement`);
      // the first datagram (v3: the engine discovery) and two re-sends (retries: 2)
      expect(arrivals).toHaveLength(3);
    } finally {
      silent.close();
    }
  });

  it('refuses a v3 target whose passphrase was forgotten, naming the field, without sending', async () => {
    const forgotten = v3Target(manager, { security_name: 'sha256-aes128', auth_protocol: 'SHA-256', priv_protocol: 'AES-128', priv_passphrase: null });
    await expect(sender.send(forgotten, makeEvent('test_trap', 'forgotten', at))).rejects.toThrow(/priv_passphrase is not set/);
  });
});
