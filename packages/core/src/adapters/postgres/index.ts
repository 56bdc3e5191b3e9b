export { openPostgresStorage, migratePostgres, type PostgresStorageOptions } from './postgres-storage.js';
export { postgresQuirks } from './postgres-dialect-quirks.js';
export { PgEventBus, listenerApplicationName, type PgEventBusOptions } from './pg-event-bus.js';
export { createPostgresRateLimiter, createPostgresAccessLimits, type PgRateLimiterOptions } from './pg-rate-limiter.js';
export { createResilientPool } from './pg-pool.js';
