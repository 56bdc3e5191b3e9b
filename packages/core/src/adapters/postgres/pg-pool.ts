import pg from 'pg';

/**
 * A pg pool that survives the server going away. pg emits 'error' on the pool for an idle
 * connection that drops, and on the client itself for a checked-out one (its queries fail
 * too); with no listener either ends the process. Both are swallowed here: the failed query
 * already answers 503, and pg-pool discards a client that is no longer queryable on release.
 */
export function createResilientPool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool(config);
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}
