import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertEvent, makeEvent } from '../../domain/events.js';
import { MemoryEventBus } from '../memory/memory-event-bus.js';
import { startTrapDispatcher, type TrapDispatchTarget } from '../../events/trap-dispatcher.js';
import { requireTools } from '../../testing/require-tool.js';
import { NetSnmpTrapSender } from './snmp-trap-sender.js';
import { freeUdpPort } from '../../testing/snmp-tool-env.js';
import { SnmptrapdPeer, type ReceivedTrap } from '../../testing/snmptrapd-peer.js';

const tools = requireTools(['snmptrapd'], 'bash .ci/setup-snmp.sh');

const at = new Date('2025-11-21T19:33:00.000Z');
const message = (trap: ReceivedTrap) => trap.varbinds.find((v) => v.startsWith('DMS-MIB::dmsEventMessage.0'))?.split('STRING: ')[1];

// Without the real peer this prints why it skips; with CI=true requireTools fails instead.
describe.skipIf(!tools.ok)('trap dispatcher, net-snmp sender and snmptrapd together', () => {
  const trapd = new SnmptrapdPeer();
  let manager: string;

  beforeAll(async () => {
    const port = await freeUdpPort();
    manager = `127.0.0.1:${port}`;
    // each target has its own community, all of which snmptrapd logs: a trap sent to the
    // wrong target would show up, so "nothing received" means nothing was sent
    await trapd.start({
      snmptrapd: tools.paths['snmptrapd']!,
      communities: ['low-band', 'high-band', 'inactive'],
      listen: [`udp:${manager}`],
    });
  });
  afterAll(() => trapd.stop());

  it('delivers in-band events only, and nothing to a deactivated target', async () => {
    const targets: TrapDispatchTarget[] = [
      { id: 1, activation: 1, version: 'v2c', manager, community: 'low-band', severity_low: 1, severity_high: 3 },
      { id: 2, activation: 1, version: 'v1', manager, community: 'high-band', severity_low: 4, severity_high: 5 },
      { id: 3, activation: 0, version: 'v2c', manager, community: 'inactive', severity_low: 1, severity_high: 5 },
    ];
    const bus = new MemoryEventBus();
    const sender = new NetSnmpTrapSender();
    const errors: unknown[] = [];
    const stop = startTrapDispatcher({ bus, listTargets: async () => targets, sender, onError: (e) => errors.push(e) });

    bus.publish(makeEvent('test_trap', 'info for the low band', at)); // severity 1
    bus.publish(makeEvent('share_test_failed', 'error for the high band', at)); // severity 4
    await trapd.waitFor((t) => message(t) === 'info for the low band');
    await trapd.waitFor((t) => message(t) === 'error for the high band');
    // a last high-band event: once it is logged, any stray trap sent before it has been too
    bus.publish(makeEvent('share_scan_failed', 'last', at));
    await trapd.waitFor((t) => message(t) === 'last');
    await stop();
    sender.close();

    const received = trapd.traps.map((t) => `${t.community} v${t.version === 0 ? 1 : '2c'}: ${message(t)}`).sort();
    expect(received).toEqual(['high-band v1: error for the high band', 'high-band v1: last', 'low-band v2c: info for the low band']);
    expect(errors).toEqual([]);
  });

  it('filters an alert’s raise and clear by the alert’s level, not by the catalogue’s severity of alert events (3)', async () => {
    const targets: TrapDispatchTarget[] = [
      { id: 1, activation: 1, version: 'v2c', manager, community: 'low-band', severity_low: 1, severity_high: 3 },
      { id: 2, activation: 1, version: 'v1', manager, community: 'high-band', severity_low: 4, severity_high: 5 },
    ];
    const bus = new MemoryEventBus();
    const sender = new NetSnmpTrapSender();
    const errors: unknown[] = [];
    const stop = startTrapDispatcher({ bus, listTargets: async () => targets, sender, onError: (e) => errors.push(e) });
    const share = { type: 'nas_share', id: 3, name: 'projects' };

    bus.publish(alertEvent('alert_raised', { id: 1, source: 'share_unreachable', level: 4 }, 'raised at 4', at, share));
    bus.publish(alertEvent('alert_cleared', { id: 1, source: 'share_unreachable', level: 4 }, 'cleared at 4', at, share));
    bus.publish(alertEvent('alert_raised', { id: 2, source: 'api_key_expiring', level: 2 }, 'raised at 2', at));
    for (const text of ['raised at 4', 'cleared at 4', 'raised at 2']) await trapd.waitFor((t) => message(t) === text);
    // the barrier of the test above: a last high-band event, logged after any stray one
    bus.publish(makeEvent('share_scan_failed', 'last alert barrier', at));
    await trapd.waitFor((t) => message(t) === 'last alert barrier');
    await stop();
    sender.close();

    const alertTraps = trapd.traps.filter((t) => /^(raised|cleared) at/.test(message(t) ?? ''));
    expect(alertTraps.map((t) => `${t.community}: ${message(t)}`).sort()).toEqual([
      'high-band: cleared at 4',
      'high-band: raised at 4',
      'low-band: raised at 2',
    ]);
    const raised = alertTraps.find((t) => message(t) === 'raised at 4')!;
    expect(raised.specific).toBe('DMS-MIB::dmsAlertRaised');
    expect(raised.varbinds).toEqual(
      expect.arrayContaining([
        'DMS-MIB::dmsEventSeverity.0 = INTEGER: error(4)',
        'DMS-MIB::dmsAlertSource.0 = STRING: share_unreachable',
        'DMS-MIB::dmsAlertId.0 = Gauge32: 1',
      ]),
    );
    expect(alertTraps.find((t) => message(t) === 'raised at 2')!.varbinds).toContain('DMS-MIB::dmsEventSeverity.0 = INTEGER: notice(2)');
    expect(errors).toEqual([]);
  });
});
