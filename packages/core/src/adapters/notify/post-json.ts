import type { SendResult } from '../../ports/channel-sender.js';

/** Most bytes of a receiver's answer read (for the error line); the rest is not read at all. */
const answerBytesRead = 1_024;

/** Reads at most `limit` bytes of a body as text, then lets go of the rest. */
async function readBounded(response: Response, limit: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
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
 */
export async function postTo(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<SendResult> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(url, { method: 'POST', body, headers: { 'user-agent': 'dms-notifier', ...headers }, redirect: 'manual', signal });
    const status = response.status;
    if (status >= 200 && status < 300) {
      await response.body?.cancel().catch(() => {});
      return { ok: true, status_code: status, error: null };
    }
    const answer = oneLine(await readBounded(response, answerBytesRead));
    return { ok: false, status_code: status, error: `HTTP ${status}${answer ? `: ${answer}` : ''}`, ...(status === 410 ? { gone: true } : {}) };
  } catch (error) {
    const reason = signal.aborted ? `no answer within ${timeoutMs} ms` : describeFetchError(error);
    return { ok: false, status_code: null, error: reason };
  }
}

/** fetch's TypeError hides the reason in `cause` (ECONNREFUSED, a certificate …): the line says it. */
function describeFetchError(error: unknown): string {
  if (!(error instanceof Error)) return 'send failed';
  const cause = error.cause instanceof Error ? error.cause : undefined;
  const code = cause && 'code' in cause && typeof cause.code === 'string' ? cause.code : undefined;
  return oneLine(cause ? `${error.message}: ${code ?? cause.message}` : error.message);
}
