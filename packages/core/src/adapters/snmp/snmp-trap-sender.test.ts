import { createSocket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertEvent, makeEvent, type DmsEvent } from '../../domain/events.js';
import type { TrapTarget } from '../../ports/notifier.js';
import { requireTools } from '../../testing/require-tool.js';
import { NetSnmpTrapSender } from './snmp-trap-sender.js';
import { freeUdpPort } from '../../testing/snmp-tool-env.js';
import { SnmptrapdPeer, type ReceivedTrap } from '../../testing/snmptrapd-peer.js';

const tools = requireTools(['snmptrapd'], 'bash .ci/setup-snmp.sh');

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
}

const at = new Date('2025-11-21T19:33:00.000Z');
const failed = (message: string): DmsEvent => makeEvent('share_test_failed', message, at, { type: 'nas_share', id: 12, name: 'projects' });
const withMessage = (message: string) => (trap: ReceivedTrap) => trap.varbinds.some((v) => v === `DMS-MIB::dmsEventMessage.0 = STRING: ${message}`);

// Without the real peer this prints why it skips; with CI=true requireTools fails instead.
describe.skipIf(!tools.ok)('NetSnmpTrapSender against snmptrapd', () => {
  const trapd = new SnmptrapdPeer();
  const sender = new NetSnmpTrapSender();
  let manager4: string;
  let manager6: string;

  beforeAll(async () => {
    const port4 = await freeUdpPort('127.0.0.1');
    const port6 = await freeUdpPort('::1');
    manager4 = `127.0.0.1:${port4}`;
    manager6 = `[::1]:${port6}`;
    await trapd.start({
      snmptrapd: tools.paths['snmptrapd']!,
      communities: ['s3cret'],
      listen: [`udp:127.0.0.1:${port4}`, `udp6:[::1]:${port6}`],
    });
  });
  afterAll(async () => {
    sender.close();
    await trapd.stop();
  });

  const target = (overrides: Partial<TrapTarget>): TrapTarget => ({
    id: 1,
    version: 'v2c',
    manager: manager4,
    community: 's3cret',
    ...overrides,
  });

  it('runs a snmptrapd that loaded DMS-MIB without a warning', () => {
    expect(trapd.startupLog).toMatch(/^NET-SNMP version [\d.]+\n$/);
    expect(trapd.stderr).toBe('');
  });

  it('sends a v2c trap: sysUpTime, snmpTrapOID = dmsNotifications.N, then the five event objects', async () => {
    await sender.send(target({}), failed('v2c: could not connect to naïve-host'));
    const trap = await trapd.waitFor(withMessage('v2c: could not connect to naïve-host'));
    expect(trap.version).toBe(1);
    expect(trap.community).toBe('s3cret');
    expect(trap.varbinds[0]).toMatch(/^SNMPv2-SMI::mib-2\.1\.3\.0 = Timeticks: \(\d+\)/);
    expect(trap.varbinds.slice(1)).toEqual([
      'SNMPv2-SMI::snmpModules.1.1.4.1.0 = OID: DMS-MIB::dmsShareTestFailed',
      'DMS-MIB::dmsEventName.0 = STRING: share_test_failed',
      'DMS-MIB::dmsEventSeverity.0 = INTEGER: error(4)',
      'DMS-MIB::dmsEventMessage.0 = STRING: v2c: could not connect to naïve-host',
      'DMS-MIB::dmsEventResource.0 = STRING: nas_share 12 (projects)',
      'DMS-MIB::dmsEventTimestamp.0 = STRING: 2025-11-21T19:33:00.000Z',
    ]);
  });

  it('sends a v1 trap: enterprise = the arc, generic 6, specific = the notification number', async () => {
    await sender.send(target({ version: 'v1' }), failed('v1 trap'));
    const trap = await trapd.waitFor(withMessage('v1 trap'));
    expect(trap).toMatchObject({ version: 0, community: 's3cret', enterprise: 'DMS-MIB::dms', generic: '6' });
    // snmptrapd maps enterprise.0.specific back to the NOTIFICATION-TYPE (RFC 3584)
    expect(trap.specific).toBe('DMS-MIB::dmsShareTestFailed');
    expect(trap.varbinds).toEqual([
      'DMS-MIB::dmsEventName.0 = STRING: share_test_failed',
      'DMS-MIB::dmsEventSeverity.0 = INTEGER: error(4)',
      'DMS-MIB::dmsEventMessage.0 = STRING: v1 trap',
      'DMS-MIB::dmsEventResource.0 = STRING: nas_share 12 (projects)',
      'DMS-MIB::dmsEventTimestamp.0 = STRING: 2025-11-21T19:33:00.000Z',
    ]);
  });

  it('sends an alert as dmsAlertRaised / dmsAlertCleared: the alert’s level as severity, then its source and id after the five', async () => {
    const alert = { id: 42, source: 'share_unreachable', level: 5 as const };
    const share = { type: 'nas_share', id: 12, name: 'projects' };
    await sender.send(target({}), alertEvent('alert_raised', alert, 'v2c raised', at, share));
    await sender.send(target({ version: 'v1' }), alertEvent('alert_cleared', alert, 'v1 cleared', at, share));
    const raised = await trapd.waitFor(withMessage('v2c raised'));
    const cleared = await trapd.waitFor(withMessage('v1 cleared'));
    expect(raised.varbinds.slice(1)).toEqual([
      'SNMPv2-SMI::snmpModules.1.1.4.1.0 = OID: DMS-MIB::dmsAlertRaised',
      'DMS-MIB::dmsEventName.0 = STRING: alert_raised',
      // the alert's level, not the catalogue's 3
      'DMS-MIB::dmsEventSeverity.0 = INTEGER: critical(5)',
      'DMS-MIB::dmsEventMessage.0 = STRING: v2c raised',
      'DMS-MIB::dmsEventResource.0 = STRING: nas_share 12 (projects)',
      'DMS-MIB::dmsEventTimestamp.0 = STRING: 2025-11-21T19:33:00.000Z',
      'DMS-MIB::dmsAlertSource.0 = STRING: share_unreachable',
      'DMS-MIB::dmsAlertId.0 = Gauge32: 42',
    ]);
    expect(cleared).toMatchObject({ version: 0, enterprise: 'DMS-MIB::dms', generic: '6', specific: 'DMS-MIB::dmsAlertCleared' });
    expect(cleared.varbinds).toEqual([
      'DMS-MIB::dmsEventName.0 = STRING: alert_cleared',
      'DMS-MIB::dmsEventSeverity.0 = INTEGER: critical(5)',
      'DMS-MIB::dmsEventMessage.0 = STRING: v1 cleared',
      'DMS-MIB::dmsEventResource.0 = STRING: nas_share 12 (projects)',
      'DMS-MIB::dmsEventTimestamp.0 = STRING: 2025-11-21T19:33:00.000Z',
      'DMS-MIB::dmsAlertSource.0 = STRING: share_unreachable',
      'DMS-MIB::dmsAlertId.0 = Gauge32: 42',
    ]);
  });

  it('reaches an IPv6 manager written in brackets', async () => {
    await sender.send(target({ manager: manager6 }), failed('over IPv6'));
    const trap = await trapd.waitFor(withMessage('over IPv6'));
    expect(trap.community).toBe('s3cret');
  });

  it('issue 40 item E: abandonInforms settles a pending inform at once, refuses later ones, and lets traps through', async () => {
    const silent = createSocket('udp4');
    const datagrams: Buffer[] = [];
    silent.on('message', (datagram) => datagrams.push(datagram));
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    const sender = new NetSnmpTrapSender();
    try {
      const informTo = (manager: string) => sender.send(target({ manager, notify_type: 'inform' }), failed('inform at stop'));
      const pending = informTo(`127.0.0.1:${silent.address().port}`).then(
        () => 'acknowledged',
        (error: Error) => error.name,
      );
      await until(() => datagrams.length === 1);
      sender.abandonInforms();
      expect(await pending).toBe('InformAbandonedError');
      await expect(informTo(manager4)).rejects.toMatchObject({ name: 'InformAbandonedError' });
      await sender.send(target({}), failed('trap after the informs were abandoned'));
      expect(await trapd.waitFor(withMessage('trap after the informs were abandoned'))).toBeDefined();
    } finally {
      sender.close();
      silent.close();
    }
  });

  it('sends the community of the target: a community the manager does not know is not logged', async () => {
    await sender.send(target({ community: 'wrong' }), failed('wrong community'));
    await sender.send(target({ version: 'v1', community: 'wrong' }), failed('wrong community v1'));
    // datagrams on loopback arrive in order: once this one is logged, the others were judged
    await sender.send(target({}), failed('after wrong community'));
    await trapd.waitFor(withMessage('after wrong community'));
    expect(trapd.traps.filter(withMessage('wrong community'))).toEqual([]);
    expect(trapd.traps.filter(withMessage('wrong community v1'))).toEqual([]);
  });

  it('uses the configured enterprise arc and sends an event without resource with an empty one', async () => {
    const other = new NetSnmpTrapSender({ enterpriseOid: '1.3.6.1.4.1.99999' });
    await other.send(target({}), makeEvent('service_started', 'other arc', at));
    other.close();
    // outside DMS-MIB's arc snmptrapd has no names, and quotes the strings
    const trap = await trapd.waitFor((t) => t.varbinds.includes('SNMPv2-SMI::enterprises.99999.1.1.3.0 = STRING: "other arc"'));
    expect(trap.varbinds).toContain('SNMPv2-SMI::snmpModules.1.1.4.1.0 = OID: SNMPv2-SMI::enterprises.99999.0.7');
    expect(trap.varbinds).toContain('SNMPv2-SMI::enterprises.99999.1.1.4.0 = ""');
  });

  it('cuts a long message to 255 octets without splitting a character', async () => {
    // 4 ASCII octets then 2-octet characters: 255 octets would end in the middle of one
    const message = `cut ${'é'.repeat(200)}`;
    await sender.send(target({}), failed(message));
    const trap = await trapd.waitFor((t) => t.varbinds.some((v) => v.startsWith('DMS-MIB::dmsEventMessage.0 = STRING: cut é')));
    const sent = trap.varbinds.find((v) => v.startsWith('DMS-MIB::dmsEventMessage.0'))!.split('STRING: ')[1]!;
    expect(Buffer.byteLength(sent)).toBe(254);
    expect(sent).toBe(`cut ${'é'.repeat(125)}`);
  });
});

describe('NetSnmpTrapSender failures', () => {
  it('rejects, and never hangs, when the manager cannot be resolved', async () => {
    const sender = new NetSnmpTrapSender({ timeoutMs: 1000 });
    const started = Date.now();
    await expect(sender.send({ id: 1, version: 'v2c', manager: 'manager.invalid', community: 'public' }, failed('x'))).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(2000);
    sender.close();
  });

  it('rejects a bad manager port and sends after close', async () => {
    const sender = new NetSnmpTrapSender();
    await expect(sender.send({ id: 1, version: 'v2c', manager: '127.0.0.1:70000', community: 'p' }, failed('x'))).rejects.toThrow(/invalid trap manager/);
    sender.close();
    await expect(sender.send({ id: 1, version: 'v2c', manager: '127.0.0.1', community: 'p' }, failed('x'))).rejects.toThrow(/closed/);
  });

  it('finding 20.11: sends nothing to a manager whose addresses the allowed hosts exclude, and asks with the addresses it sends to', async () => {
    const manager = createSocket('udp4');
    const received: Buffer[] = [];
    manager.on('message', (datagram) => received.push(datagram));
    await new Promise<void>((resolve) => manager.bind(0, '127.0.0.1', resolve));
    const { port } = manager.address();
    const sender = new NetSnmpTrapSender();
    const asked: Array<[string, readonly string[]]> = [];
    const only = (allowed: boolean) => ({ allows: (host: string, addresses: readonly string[]) => (asked.push([host, addresses]), allowed) });
    try {
      await expect(sender.send({ id: 1, version: 'v2c', manager: `localhost:${port}`, community: 'p' }, failed('refused'), only(false))).rejects.toThrow(
        /manager host localhost \(it resolves to .*127\.0\.0\.1.*\) is not among the share_test_allowed_hosts/,
      );
      await sender.send({ id: 1, version: 'v2c', manager: `127.0.0.1:${port}`, community: 'p' }, failed('allowed'), only(true));
      await until(() => received.length > 0);
      expect(received).toHaveLength(1);
      expect(received[0]!.includes(Buffer.from('allowed'))).toBe(true);
      expect(asked[0]![0]).toBe('localhost');
      expect(asked[0]![1]).toContain('127.0.0.1');
      expect(asked[1]).toEqual(['127.0.0.1', ['127.0.0.1']]);
    } finally {
      sender.close();
      manager.close();
    }
  });

  it('refuses an alert event without its alert, before it opens a socket: a trap without dmsAlertSource and dmsAlertId is not sent', async () => {
    const manager = createSocket('udp4');
    const received: Buffer[] = [];
    manager.on('message', (datagram) => received.push(datagram));
    await new Promise<void>((resolve) => manager.bind(0, '127.0.0.1', resolve));
    const sender = new NetSnmpTrapSender();
    const target: TrapTarget = { id: 1, version: 'v2c', manager: `127.0.0.1:${manager.address().port}`, community: 'p' };
    try {
      const bare: DmsEvent = { name: 'alert_raised', severity: 4, message: 'no alert', at };
      await expect(sender.send(target, bare)).rejects.toThrow(/alert_raised event without its alert/);
      const oversized = alertEvent('alert_cleared', { id: 2 ** 32, source: 'scan_failed', level: 3 }, 'too big', at);
      await expect(sender.send(target, oversized)).rejects.toThrow(/does not fit dmsAlertId/);
      // a good send after them: once it arrives, the refused ones would have too
      await sender.send(target, failed('after the refused'));
      await until(() => received.length > 0);
      expect(received).toHaveLength(1);
      expect(received[0]!.includes(Buffer.from('after the refused'))).toBe(true);
    } finally {
      sender.close();
      manager.close();
    }
  });

  it('refuses a malformed enterprise OID', () => {
    expect(() => new NetSnmpTrapSender({ enterpriseOid: '1.3.6.x' })).toThrow(/enterprise OID/);
  });
});
