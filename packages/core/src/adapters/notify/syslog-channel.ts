import { createSocket } from 'node:dgram';
import { connect as connectTcp, type Socket } from 'node:net';
import { hostname } from 'node:os';
import { connect as connectTls } from 'node:tls';
import type { ChannelSend } from '../../ports/channel-sender.js';
import type { NotificationMessage } from '../../domain/notification-message.js';
import type { ChannelSettings } from '../../domain/notification-channel.js';
import type { Severity } from '../../domain/trap.js';

/** RFC 5424 severities of the levels: 1 info … 5 critical. */
const syslogSeverity: Record<Severity, number> = { 1: 6, 2: 5, 3: 4, 4: 3, 5: 2 };

/** The facilities a channel may log under (RFC 5424 §6.2.1). */
export const syslogFacilities = { daemon: 3, local0: 16, local1: 17, local2: 18, local3: 19, local4: 20, local5: 21, local6: 22, local7: 23 } as const;

/** Most bytes of one message: a UDP datagram that crosses any network whole (RFC 5426 asks receivers for 480 at least, 2048 should). */
const maxMessageBytes = 2_048;

/** An SD-PARAM value escapes `"`, `\` and `]` (RFC 5424 §6.3.3). */
const sdValue = (value: string) => value.replace(/["\\\]]/g, (char) => `\\${char}`);

/** PRINTUSASCII without spaces, at most `max`: a header field, or `-`. */
const headerField = (value: string, max: number) => value.replace(/[^\x21-\x7e]/g, '').slice(0, max) || '-';

/**
 * One RFC 5424 message: `<PRI>1 TIMESTAMP HOSTNAME dms PROCID MSGID [dms@32473 …] BOM MSG`, with
 * the event's id, type, source and level as structured data (32473 is the example enterprise
 * number RFC 5612 reserves for documentation: no registered one of dms's own yet).
 */
export function syslogLine(message: NotificationMessage, facility: number, host = hostname()): Buffer {
  const pri = facility * 8 + syslogSeverity[message.level];
  const sd = `[dms@32473 id="${sdValue(message.id)}" type="${sdValue(message.type)}" source="${sdValue(message.source)}" level="${message.level}"]`;
  const head = `<${pri}>1 ${message.timestamp} ${headerField(host, 255)} dms ${process.pid} ${headerField(message.type, 32)} ${sd} `;
  const text = Buffer.from(`\ufeff${message.title}: ${message.text}`.replace(/[\r\n]+/g, ' '), 'utf8');
  const room = maxMessageBytes - Buffer.byteLength(head);
  return Buffer.concat([Buffer.from(head, 'utf8'), text.subarray(0, Math.max(0, room))]);
}

/** Writes one octet-counted frame (RFC 6587 §3.4.1, RFC 5425) and waits until it is flushed and the connection closed. */
function sendFrame(socket: Socket, frame: Buffer, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => socket.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
    socket.end(Buffer.concat([Buffer.from(`${frame.length} `), frame]));
  });
}

/** Syslog: a datagram over UDP, or a framed message over TCP or TLS (the certificate verified, against `ca` too). */
export const sendSyslog: ChannelSend = async (channel, message, timeoutMs) => {
  const settings = channel.settings as ChannelSettings['syslog'];
  const line = syslogLine(message, syslogFacilities[settings.facility]);
  const host = settings.host.replace(/^\[(.*)\]$/, '$1');
  try {
    if (settings.transport === 'udp') {
      const socket = createSocket(host.includes(':') ? 'udp6' : 'udp4');
      try {
        await new Promise<void>((resolve, reject) => socket.send(line, settings.port, host, (error) => (error ? reject(error) : resolve())));
      } finally {
        socket.close();
      }
    } else {
      const socket =
        settings.transport === 'tls'
          ? connectTls({ host, port: settings.port, servername: /^[\d.:]+$/.test(host) ? undefined : host, ...(settings.ca ? { ca: settings.ca } : {}) })
          : connectTcp({ host, port: settings.port });
      await sendFrame(socket, line, timeoutMs);
    }
    return { ok: true, status_code: null, error: null };
  } catch (error) {
    return {
      ok: false,
      status_code: null,
      error: error instanceof Error ? error.message.replace(/[\u0000-\u001f\u007f]+/g, ' ').slice(0, 300) : 'send failed',
    };
  }
};
