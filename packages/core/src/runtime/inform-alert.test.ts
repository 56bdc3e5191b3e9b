import { createSocket, type Socket } from 'node:dgram';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeEvent } from '../domain/events.js';
import { systemPrincipal } from '../scopes/principal.js';
import { NetSnmpTrapSender } from '../adapters/snmp/snmp-trap-sender.js';
import { requireTools } from '../testing/require-tool.js';
import { freeUdpPort } from '../testing/snmp-tool-env.js';
import { SnmptrapdPeer } from '../testing/snmptrapd-peer.js';
import { openDms, type Dms } from './open-dms.js';

/**
 * Issue 24: an inform the manager never acknowledges, after its retries, raises the alert
 * `trap_target_unreachable` on the target (and a log line); the next acknowledged one clears it.
 * A real service (openDms), the real net-snmp sender, a silent UDP socket, then snmptrapd.
 */
const tools = requireTools(['snmptrapd'], 'bash .ci/setup-snmp.sh');

async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.skipIf(!tools.ok)('an unacknowledged inform raises trap_target_unreachable', () => {
  let root: string;
  let dms: Dms;
  let silent: Socket;
  const datagrams: Buffer[] = [];
  const trapd = new SnmptrapdPeer();

  beforeEach(async () => {
    root = mkdtempSync(join(tmpdir(), 'dms-inform-alert-'));
    silent = createSocket('udp4');
    silent.on('message', (datagram) => datagrams.push(datagram));
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    const sender = new NetSnmpTrapSender({ inform: { timeoutMs: 200, retries: 2, backoff: 2 } });
    dms = await openDms({ dataDir: join(root, 'data'), role: 'service', trapSender: sender });
  });
  afterEach(async () => {
    await dms.close();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
    await trapd.stop();
    rmSync(root, { recursive: true, force: true });
  });

  const openAlerts = async () => (await dms.core.alerts.list(systemPrincipal, { source: ['trap_target_unreachable'], cleared_at: ['null'] })).alerts;

  it('retries an inform to a silent port, raises the alert on the target, and clears it once an inform is acknowledged', async () => {
    // band 4-5: the alert's own events (level 3) are not sent to it
    const target = await dms.core.traps.create(systemPrincipal, {
      manager: `127.0.0.1:${silent.address().port}`,
      notify_type: 'inform',
      community: 'inform-community',
      severity_low: 4,
      severity_high: 5,
    });
    dms.events.publish(makeEvent('share_test_failed', 'nobody listens', new Date()));
    await until(async () => (await openAlerts()).length === 1, 'the alert');
    const [alert] = await openAlerts();
    expect(alert).toMatchObject({ level: 3, resource: { type: 'traps', id: target.snmp_trap_id, name: target.manager } });
    expect(alert!.message).toBe(`trap target ${target.manager}: inform to ${target.manager} not acknowledged after 3 attempt(s): no acknowledgement`);
    expect(datagrams).toHaveLength(3);

    const listen = `127.0.0.1:${await freeUdpPort()}`;
    await trapd.start({ snmptrapd: tools.paths['snmptrapd']!, communities: ['inform-community'], listen: [`udp:${listen}`] });
    await dms.core.traps.update(systemPrincipal, target.snmp_trap_id, { manager: listen });
    dms.events.publish(makeEvent('share_test_failed', 'acknowledged', new Date()));
    await until(async () => (await openAlerts()).length === 0, 'the alert cleared');
    expect(await trapd.waitFor((t) => t.inform && t.varbinds.some((v) => v.includes('acknowledged')))).toBeDefined();
  });
});
