import { createSocket, type Socket } from 'node:dgram';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeEvent } from '../domain/events.js';
import { systemPrincipal } from '../scopes/principal.js';
import { openDms, type Dms } from './open-dms.js';

/** Waits for a condition the test cannot otherwise await (a detached send), without a fixed sleep. */
async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!condition()) throw new Error(`timed out waiting for ${what}`);
}

describe('traps obey share_test_allowed_hosts when they are sent', () => {
  let root: string;
  let dms: Dms;
  let manager: Socket;
  let port: number;
  const received: Buffer[] = [];
  const sendErrors: unknown[] = [];

  beforeEach(async () => {
    root = mkdtempSync(join(tmpdir(), 'dms-trap-hosts-'));
    received.length = 0;
    sendErrors.length = 0;
    // 127.0.0.1 stands in for the host the list excludes: it records whatever reaches it.
    manager = createSocket('udp4');
    manager.on('message', (datagram) => received.push(datagram));
    await new Promise<void>((resolve) => manager.bind(0, '127.0.0.1', resolve));
    port = manager.address().port;
    // the real net-snmp sender
    dms = await openDms({ dataDir: join(root, 'data'), role: 'service', onTrapSendError: (error) => sendErrors.push(error) });
  });
  afterEach(async () => {
    await dms.close();
    await new Promise<void>((resolve) => manager.close(() => resolve()));
    rmSync(root, { recursive: true, force: true });
  });

  const allow = (share_test_allowed_hosts: string[]) => dms.core.settings.update(systemPrincipal, { share_test_allowed_hosts });
  const failed = (message: string) => dms.events.publish(makeEvent('share_test_failed', message, new Date()));

  it('finding 20.11: an event trap to a target saved while allowed is not sent once the list excludes its host', async () => {
    await allow(['127.0.0.1']);
    // severity 4 and 5 only: the configuration_changed events of these updates (1) send nothing
    const trap = await dms.core.traps.create(systemPrincipal, { manager: `127.0.0.1:${port}`, severity_low: 4, severity_high: 5 });
    await allow(['192.0.2.0/24']);

    failed('while excluded');
    await until(() => sendErrors.length === 1, 'the refused send');
    expect(String(sendErrors[0])).toMatch(/manager host 127\.0\.0\.1 is not among the share_test_allowed_hosts/);
    await expect(dms.core.traps.test(systemPrincipal, trap.snmp_trap_id)).rejects.toMatchObject({
      name: 'DomainError',
      message: expect.stringContaining('share_test_allowed_hosts'),
    });

    await allow(['127.0.0.1']);
    failed('allowed again');
    await until(() => received.length > 0, 'the allowed trap');
    // one datagram: the trap of the first event never left
    expect(received).toHaveLength(1);
    expect(received[0]!.includes(Buffer.from('allowed again'))).toBe(true);
    expect(sendErrors).toHaveLength(1);
  });
});
