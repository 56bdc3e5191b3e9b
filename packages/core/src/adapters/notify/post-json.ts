import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { SendResult } from '../../ports/channel-sender.js';

/** Most bytes of a receiver's answer read (for the error line); past them the connection is let go. */
const answerBytesRead = 1_024;

/**
 * Reads at most `limit` bytes of an answer as text. An answer that ends within them leaves its
 * connection to be used again (keep-alive); a longer one is cut off there.
 */
function readBounded(response: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => resolve(Buffer.concat(chunks).subarray(0, limit).toString('utf8'));
    response.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.byteLength;
      if (size >= limit) {
        response.destroy();
        done();
      }
    });
    response.on('end', done);
    response.on('close', done);
    response.on('error', done);
  });
}

/** One line, printable, short: what an error column may hold of a receiver's answer. */
function oneLine(text: string, max = 200): string {
  const line = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

/**
 * POSTs a body to a channel's URL: no redirect followed (a 3xx is a failure, so a receiver
 * cannot send dms elsewhere), the whole exchange bounded by `timeoutMs`, at most 1 KiB of the
 * answer read. A 2xx is delivered; 410 says the channel is gone.
 *
 * Sent with node:http(s) and their keep-alive agents rather than fetch: a webhook's POST costs
 * a third of the CPU time, which a dispatcher sharing its thread with the service feels
 * (docs/decisions/184-notifications-share-the-loop.md).
 */
export function postTo(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<SendResult> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve({ ok: false, status_code: null, error: 'not a valid URL' });
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:')
    return Promise.resolve({ ok: false, status_code: null, error: `not an http or https URL (${oneLine(target.protocol, 20)})` });
  const signal = AbortSignal.timeout(timeoutMs);
  const failed = (error: unknown): SendResult => ({
    ok: false,
    status_code: null,
    error: signal.aborted ? `no answer within ${timeoutMs} ms` : describeSendError(error),
  });
  return new Promise<SendResult>((resolve) => {
    try {
      const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
      const outgoing = { 'user-agent': 'dms-notifier', ...headers, 'content-length': String(Buffer.byteLength(body)) };
      const sent = send(target, { method: 'POST', headers: outgoing, signal }, (response) => {
        const status = response.statusCode ?? 0;
        const answer = readBounded(response, answerBytesRead);
        if (status >= 200 && status < 300) {
          resolve({ ok: true, status_code: status, error: null });
          return;
        }
        void answer.then((text) => {
          const line = oneLine(text);
          resolve({ ok: false, status_code: status, error: `HTTP ${status}${line ? `: ${line}` : ''}`, ...(status === 410 ? { gone: true } : {}) });
        });
      });
      sent.on('error', (error) => resolve(failed(error)));
      sent.end(body);
    } catch (error) {
      // a header value node:http refuses (a control character): nothing was sent
      resolve(failed(error));
    }
  });
}

/** The reason a send failed, with its code (ECONNREFUSED, a certificate's …) when the message lacks it. */
function describeSendError(error: unknown): string {
  if (!(error instanceof Error)) return 'send failed';
  const code = 'code' in error && typeof error.code === 'string' ? error.code : undefined;
  return oneLine(code && !error.message.includes(code) ? `${error.message} (${code})` : error.message);
}
