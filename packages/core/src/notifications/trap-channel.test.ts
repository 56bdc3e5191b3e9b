import { createSocket, type Socket } from 'node:dgram';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEvent } from '../domain/events.js';
import { systemPrincipal } from '../scopes/principal.js';
import { NetSnmpTrapSender } from '../adapters/snmp/snmp-trap-sender.js';
import { requireTools } from '../testing/require-tool.js';
import { freeUdpPort } from '../testing/snmp-tool-env.js';
import { SnmptrapdPeer, trapVarbind } from '../testing/snmptrapd-peer.js';
import { openDms, type Dms } from '../runtime/open-dms.js';

/**
 * Issue 44, SNMP trap targets as a channel (docs/decisions/174-snmp-traps-as-a-channel.md), done
 * when: an event's inform that no manager acknowledges stays queued and is retried by the
 * notification dispatcher when the test's clock reaches its backoff, reaching a real snmptrapd
 * once the target points at it, before the event queued after it (in order, each once).
 */
const tools = requireTools(['snmptrapd'], 'bash .ci/setup-snmp.sh');

async function until(condition: () => Promise<boolean> | boolean, what: string): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.skipIf(!tools.ok)('trap targets through the notification dispatcher', () => {
  let root: string;
  let dms: Dms;
  let silent: Socket;
  let now = new Date('2026-11-28T08:00:00.000Z');
  const datagrams: Buffer[] = [];
  const trapd = new SnmptrapdPeer();

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'dms-trap-channel-'));
    silent = createSocket('udp4');
    silent.on('message', (datagram) => datagrams.push(datagram));
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    const sender = new NetSnmpTrapSender({ inform: { timeoutMs: 100, retries: 0, backoff: 1 } });
    dms = await openDms({ dataDir: join(root, 'data'), role: 'service', trapSender: sender, core: { clock: () => now } });
  });
  afterAll(async () => {
    await dms?.close();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
    await trapd.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('retries an unacknowledged inform at its backoff, then delivers it and the next one, in order, once', async () => {
    const target = await dms.core.traps.create(systemPrincipal, {
      manager: `127.0.0.1:${silent.address().port}`,
      notify_type: 'inform',
      community: 'channel-community',
      severity_low: 4,
      severity_high: 5,
    });
    dms.events.publish(makeEvent('share_test_failed', 'first', now));
    // The first attempt: one datagram to the silent port, no acknowledgement, the alert raised.
    await until(
      async () => (await dms.core.alerts.list(systemPrincipal, { source: ['trap_target_unreachable'], cleared_at: ['null'] })).count === 1,
      'the alert',
    );
    expect(datagrams).toHaveLength(1);

    const listen = `127.0.0.1:${await freeUdpPort()}`;
    await trapd.start({ snmptrapd: tools.paths['snmptrapd']!, communities: ['channel-community'], listen: [`udp:${listen}`] });
    await dms.core.traps.update(systemPrincipal, target.snmp_trap_id, { manager: listen });
    dms.events.publish(makeEvent('share_scan_failed', 'second', now));
    // Queued behind the first, whose retry is not due before the clock reaches its backoff.
    await dms.notifications.runOnce();
    expect(trapd.traps).toEqual([]);

    now = new Date(now.getTime() + 60 * 60 * 1000);
    dms.notifications.wake();
    await trapd.waitFor((trap) => trapVarbind(trap, 'dmsEventMessage') === 'STRING: second');
    const messages = trapd.traps.map((trap) => trapVarbind(trap, 'dmsEventMessage'));
    expect(messages).toEqual(['STRING: first', 'STRING: second']);
    expect(trapd.traps.every((trap) => trap.inform && trap.community === 'channel-community')).toBe(true);
    await until(
      async () => (await dms.core.alerts.list(systemPrincipal, { source: ['trap_target_unreachable'], cleared_at: ['null'] })).count === 0,
      'the alert cleared',
    );
    expect(datagrams).toHaveLength(1);
  });
});
