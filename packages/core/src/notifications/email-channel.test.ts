import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { openTestDms, type TestDms } from '../testing/test-dms.js';
import { systemPrincipal } from '../scopes/principal.js';
import { requireTools } from '../testing/require-tool.js';
import { selfSignedCertificate } from '../testing/self-signed-certificate.js';

/**
 * The e-mail channel (issue 44) against a real SMTP server (the smtp-server library) on
 * 127.0.0.1 that offers STARTTLS with a certificate made for this test and requires
 * authentication: the mail goes over TLS, authenticated, with a plain-text and an HTML part.
 */
// openssl makes the SMTP server's self-signed certificate.
const openssl = requireTools(['openssl'], 'apt-get install openssl');

interface Received {
  secure: boolean;
  user: string | undefined;
  from: string | undefined;
  to: string[];
  raw: string;
}

let dir: string;
let server: SMTPServer;
let port = 0;
let cert = '';
const received: Received[] = [];
let t: TestDms;

beforeAll(async () => {
  if (!openssl.ok) return;
  dir = mkdtempSync(join(tmpdir(), 'dms-smtp-'));
  const certificate = await selfSignedCertificate(dir);
  cert = certificate.cert;
  server = new SMTPServer({
    key: certificate.key,
    cert,
    authMethods: ['PLAIN', 'LOGIN'],
    // Authentication only once the connection is encrypted (smtp-server's default), so a password never crosses in clear.
    onAuth(auth, _session, callback) {
      if (auth.username === 'dms' && auth.password === 'smtp-password-1') callback(null, { user: auth.username });
      else callback(new Error('invalid credentials'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          secure: session.secure,
          user: session.user as string | undefined,
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
    logger: false,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.server.address() as AddressInfo).port;
  t = await openTestDms({ adapter: 'sqlite' });
});
afterAll(async () => {
  if (!openssl.ok) return;
  await t.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!openssl.ok)('e-mail channel', () => {
  it('sends over STARTTLS with authentication, a plain-text and an HTML part', async () => {
    const { core, notifications } = t.dms;
    await core.notificationChannels.create(systemPrincipal, {
      name: 'mail',
      type: 'email',
      min_level: 1,
      settings: {
        host: '127.0.0.1',
        port,
        security: 'starttls',
        username: 'dms',
        password: 'smtp-password-1',
        from: 'dms@example.com',
        to: ['ops@example.com'],
        ca: cert,
      },
    });
    expect(await core.notificationChannels.test(systemPrincipal, 'mail')).toEqual({ outcome: 'delivered', status_code: null, error: null });
    await core.alerts.sight('share_unreachable', { type: 'nas_shares', id: '3', name: '<b>share</b>' }, 'refused');
    await notifications.runOnce();
    expect(received).toHaveLength(2);
    for (const mail of received) expect(mail).toMatchObject({ secure: true, user: 'dms', from: 'dms@example.com', to: ['ops@example.com'] });
    const alertMail = received[1]!.raw;
    expect(alertMail).toMatch(/^Subject: \[dms\] error: share_unreachable raised/m);
    expect(alertMail).toMatch(/Content-Type: text\/plain/);
    expect(alertMail).toMatch(/Content-Type: text\/html/);
    // The share's name is text in the HTML part, never markup.
    expect(alertMail).toContain('&lt;b&gt;share&lt;/b&gt;');
    const { deliveries } = await core.notificationChannels.deliveries(systemPrincipal, 'mail', {});
    expect(deliveries.map((delivery) => delivery.outcome)).toEqual(['delivered']);
  });

  it('a wrong password is a failed outcome that says the server refused it, and the certificate is checked', async () => {
    const { core } = t.dms;
    await core.notificationChannels.create(systemPrincipal, {
      name: 'mail-bad-password',
      type: 'email',
      settings: { host: '127.0.0.1', port, username: 'dms', password: 'wrong', from: 'dms@example.com', to: ['ops@example.com'], ca: cert },
    });
    const refused = await core.notificationChannels.test(systemPrincipal, 'mail-bad-password');
    expect(refused).toMatchObject({ outcome: 'failed', status_code: null });
    expect(refused.error).toMatch(/invalid credentials|Invalid login/i);
    // Without the test's certificate as `ca`, the self-signed certificate is not trusted.
    await core.notificationChannels.create(systemPrincipal, {
      name: 'mail-untrusted',
      type: 'email',
      settings: { host: '127.0.0.1', port, username: 'dms', password: 'smtp-password-1', from: 'dms@example.com', to: ['ops@example.com'] },
    });
    const untrusted = await core.notificationChannels.test(systemPrincipal, 'mail-untrusted');
    expect(untrusted.outcome).toBe('failed');
    expect(untrusted.error).toMatch(/certificate/i);
  });
});
