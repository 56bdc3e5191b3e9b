import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';

/** The peer address of the TCP connection (no proxy header is trusted). */
export function clientAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    // app.request() in tests has no socket
    return 'local';
  }
}
