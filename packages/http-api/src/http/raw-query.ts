import type { Context } from 'hono';
import type { RawQuery } from '@dms/core';

/** Every query parameter with all its values, for the core's list parser. */
export function rawQuery(c: Context): RawQuery {
  return c.req.queries() as RawQuery;
}
