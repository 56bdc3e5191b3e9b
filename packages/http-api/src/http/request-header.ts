import type { Context } from 'hono';

interface NodeBindings {
  incoming?: { headers: Record<string, string | string[] | undefined> };
}

/**
 * A request header, read from Node's own parsed headers when the node adapter serves the
 * request: `c.req.header()` makes the adapter build a fetch Headers object of every
 * header, which costs more than a point query. Elsewhere (tests, other runtimes) it
 * falls back to Hono's reader.
 */
export function requestHeader(c: Context, name: Lowercase<string>): string | undefined {
  const incoming = (c.env as NodeBindings | undefined)?.incoming;
  if (!incoming) return c.req.header(name);
  const value = incoming.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}
