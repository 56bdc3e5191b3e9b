import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { Context } from 'hono';
import type { AppEnv } from '../http/env.js';
import { requestHeader } from '../http/request-header.js';
import { responseHeaders } from '../http/common-headers.js';

const gzipAsync = promisify(gzip);
/** Below this, compressing costs more than it saves. */
const compressFromBytes = 4096;

/** True when the Accept-Encoding header takes gzip (listed, and not with q=0). */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  if (!acceptEncoding) return false;
  return acceptEncoding.split(',').some((part) => {
    const [coding = '', ...params] = part.trim().toLowerCase().split(';');
    if (coding.trim() !== 'gzip' && coding.trim() !== '*') return false;
    return !params.some((param) => /^\s*q\s*=\s*0(?:\.0*)?\s*$/.test(param));
  });
}

/**
 * The scrape's answer: gzip when the scraper takes it (Prometheus always asks), compressed off
 * the event loop (zlib's thread pool) at the fastest level: 10,000 shares' text is ~8 MB and
 * ~1 MB compressed (docs/decisions/180-metrics-per-share-and-activity.md). No ETag: a scrape
 * is never the same twice.
 */
export async function respondMetrics(c: Context<AppEnv>, text: Buffer, contentType: string): Promise<Response> {
  const headers = responseHeaders(c, { 'Content-Type': contentType, Vary: 'Accept-Encoding' });
  if (text.length < compressFromBytes || !acceptsGzip(requestHeader(c, 'accept-encoding'))) {
    // Buffer.concat's memory: never a SharedArrayBuffer.
    return new Response(new Uint8Array(text.buffer as ArrayBuffer, text.byteOffset, text.byteLength), { headers });
  }
  const body = await gzipAsync(text, { level: 1 });
  return new Response(new Uint8Array(body.buffer, body.byteOffset, body.byteLength), { headers: { ...headers, 'Content-Encoding': 'gzip' } });
}
