import type { ChannelSend } from '../../ports/channel-sender.js';
import type { NotificationMessage } from '../../domain/notification-message.js';
import type { ChannelSettings } from '../../domain/notification-channel.js';

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A digest's events as a list (docs/decisions/173-notification-digests.md); any other message's text as a paragraph. */
function htmlText(message: NotificationMessage): string {
  if (!('digest' in message.data)) return `<p>${escapeHtml(message.text)}</p>`;
  const items = message.text.split('\n').map((line) => `<li>${escapeHtml(line)}</li>`);
  return items.length > 0 && message.text !== '' ? `<ul>${items.join('')}</ul>` : '';
}

/** The HTML body: the title and the text, escaped (a share's name cannot inject markup). */
export function emailHtml(message: NotificationMessage): string {
  return `<!doctype html><html><body><h2>${escapeHtml(message.title)}</h2>${htmlText(message)}<p style="color:#666">${escapeHtml(message.type)} · ${escapeHtml(message.timestamp)} · event ${escapeHtml(message.id)}</p></body></html>`;
}

export function emailText(message: NotificationMessage): string {
  return `${message.title}\n\n${message.text}\n\n${message.type} · ${message.timestamp} · event ${message.id}\n`;
}

/**
 * E-mail through nodemailer (loaded when the first mail goes): STARTTLS required (`starttls`)
 * or TLS from the start (`tls`), the certificate verified (against `ca` too when set), every
 * phase of the exchange bounded by the timeout.
 */
export const sendEmail: ChannelSend = async (channel, message, timeoutMs) => {
  const settings = channel.settings as ChannelSettings['email'];
  const password = channel.secrets['password'];
  const { createTransport } = await import('nodemailer');
  const transport = createTransport({
    host: settings.host,
    port: settings.port,
    secure: settings.security === 'tls',
    requireTLS: settings.security === 'starttls',
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    ...(settings.username ? { auth: { user: settings.username, pass: password ?? '' } } : {}),
    ...(settings.ca ? { tls: { ca: settings.ca } } : {}),
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    const overall = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    });
    await Promise.race([
      transport.sendMail({ from: settings.from, to: settings.to, subject: message.title, text: emailText(message), html: emailHtml(message) }),
      overall,
    ]);
    return { ok: true, status_code: null, error: null };
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/[\u0000-\u001f\u007f]+/g, ' ').slice(0, 300) : 'send failed';
    return { ok: false, status_code: null, error: reason };
  } finally {
    clearTimeout(timer);
    transport.close();
  }
};
