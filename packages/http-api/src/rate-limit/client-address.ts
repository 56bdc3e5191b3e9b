import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';

/** The peer address of the TCP connection (no proxy header is trusted). */
export function clientAddress(c: Context): string {
  // app.request() in tests has no socket: checked first, since a throw costs more than the lookup.
  const env = c.env as { incoming?: unknown } | undefined;
  if (!env?.incoming) return 'local';
  return getConnInfo(c).remote.address ?? 'unknown';
}
