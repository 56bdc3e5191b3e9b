import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDms, type TestDms } from '../testing/test-dms.js';
import { systemPrincipal } from '../scopes/principal.js';
import { requireTools } from '../testing/require-tool.js';
import { freePort } from '../testing/fixture-support.js';
import { selfSignedCertificate } from '../testing/self-signed-certificate.js';
import { pollUntil } from '../testing/poll-until.js';
import { syslogLine } from '../adapters/notify/syslog-channel.js';

/**
 * The syslog channel (issue 44): RFC 5424 lines received by Debian's rsyslog, started by the
 * test on 127.0.0.1 with a UDP, a TCP and a TLS input (a certificate made for the test), each
 * written out in RFC 5424 form.
 */
const tools = requireTools(['rsyslogd', 'openssl'], 'apt-get install rsyslog rsyslog-gnutls openssl');

const tcpAccepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

let dir: string;
let rsyslog: ChildProcess | undefined;
let ports: { udp: number; tcp: number; tls: number };
let cert = '';
let t: TestDms;

beforeAll(async () => {
  if (!tools.ok) return;
  dir = mkdtempSync(join(tmpdir(), 'dms-rsyslog-'));
  cert = (await selfSignedCertificate(dir)).cert;
  ports = { udp: await freePort(), tcp: await freePort(), tls: await freePort() };
  writeFileSync(
    join(dir, 'rsyslog.conf'),
    [
      `global(workDirectory="${dir}" defaultNetstreamDriverCAFile="${dir}/cert.pem" defaultNetstreamDriverCertFile="${dir}/cert.pem" defaultNetstreamDriverKeyFile="${dir}/key.pem")`,
      'module(load="imudp")',
      'module(load="imtcp")',
      `input(type="imudp" port="${ports.udp}" address="127.0.0.1")`,
      `input(type="imtcp" port="${ports.tcp}" address="127.0.0.1")`,
      `input(type="imtcp" port="${ports.tls}" address="127.0.0.1" streamDriver.name="gtls" streamDriver.mode="1" streamDriver.authMode="anon")`,
      `*.* action(type="omfile" file="${dir}/received.log" template="RSYSLOG_SyslogProtocol23Format" flushOnTXEnd="on" asyncWriting="off")`,
    ].join('\n'),
  );
  rsyslog = spawn(tools.paths['rsyslogd']!, ['-n', '-f', join(dir, 'rsyslog.conf'), '-i', join(dir, 'rsyslog.pid')], { stdio: 'ignore' });
  await pollUntil(async () => (await tcpAccepts(ports.tcp)) && (await tcpAccepts(ports.tls)), Boolean, 'rsyslog listening');
  t = await openTestDms({ adapter: 'sqlite' });
});
afterAll(async () => {
  if (!tools.ok) return;
  await t.close();
  if (rsyslog && rsyslog.exitCode === null) {
    // Gone before its directory is removed: it writes there until it exits.
    const exited = new Promise((resolve) => rsyslog!.once('exit', resolve));
    rsyslog.kill('SIGTERM');
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('syslog line', () => {
  it('is RFC 5424: PRI from facility and level, the event as structured data, escaped, bounded', () => {
    const line = syslogLine(
      {
        id: 'evt_1',
        type: 'alert.raised',
        timestamp: '2026-11-28T08:00:00.000Z',
        level: 5,
        source: 'storage_degraded',
        title: 'a "b" ]c\\',
        text: 'x'.repeat(5_000),
        data: { test: true },
      },
      16,
      'nas-host',
    ).toString('utf8');
    expect(
      line.startsWith(
        `<130>1 2026-11-28T08:00:00.000Z nas-host dms ${process.pid} alert.raised [dms@32473 id="evt_1" type="alert.raised" source="storage_degraded" level="5"] \ufeffa "b" ]c\\: xxx`,
      ),
    ).toBe(true);
    expect(Buffer.byteLength(line)).toBeLessThanOrEqual(2_048);
  });
});

describe.skipIf(!tools.ok)('syslog channel', () => {
  it('rsyslog receives the alert over UDP, TCP and TLS as RFC 5424 lines', async () => {
    const { core, notifications } = t.dms;
    for (const transport of ['udp', 'tcp', 'tls'] as const) {
      await core.notificationChannels.create(systemPrincipal, {
        name: `syslog-${transport}`,
        type: 'syslog',
        min_level: 1,
        settings: { host: '127.0.0.1', port: ports[transport], transport, ...(transport === 'tls' ? { ca: cert } : {}) },
      });
    }
    await core.alerts.sight('share_unreachable', { type: 'nas_shares', id: '8', name: 'media' }, 'connection refused');
    await notifications.runOnce();
    const file = join(dir, 'received.log');
    const lines = await pollUntil(
      () =>
        existsSync(file)
          ? readFileSync(file, 'utf8')
              .split('\n')
              .filter((line) => line.includes('dms@32473'))
          : [],
      (found) => found.length >= 3,
      'three lines in rsyslog’s file',
    );
    expect(lines).toHaveLength(3);
    for (const line of lines) {
      // daemon (3) × 8 + error (3): share_unreachable's level 4.
      expect(line).toMatch(/^<27>1 \S+ \S+ dms \d+ alert\.raised \[dms@32473 id="evt_[\w-]+" type="alert\.raised" source="share_unreachable" level="4"\] /);
      expect(line).toContain('[dms] error: share_unreachable raised (nas_shares media): connection refused');
    }
    expect(new Set(lines.map((line) => /id="(evt_[\w-]+)"/.exec(line)![1])).size).toBe(1);
    const { deliveries } = await core.notificationChannels.deliveries(systemPrincipal, 'syslog-tls', {});
    expect(deliveries.map((delivery) => delivery.outcome)).toEqual(['delivered']);
  });
});
