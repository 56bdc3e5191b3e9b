/**
 * Errors that mean "the database cannot serve now" rather than "this request is wrong":
 * SQLite busy, locked, full or unreadable; PostgreSQL unreachable, shutting down, out of
 * connections or over its statement timeout. They answer 503 with Retry-After instead of 500.
 *
 * ECONNRESET and ETIMEDOUT are a database connection's codes here, yet a client socket
 * reset while its request body is read raises the same ECONNRESET: callers must sort out
 * client aborts by where the error came from before asking this (http-api's ClientAbortError).
 */
const networkCodes = ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN'];

/**
 * SQLSTATE: class 08 (connection exception), 57P01-03 (admin/crash shutdown, cannot connect
 * now), 53300 (too many connections), 57014 (statement timeout or cancel), 40001/40P01
 * (serialization failure, deadlock: the same request succeeds when retried).
 */
const postgresStates = /^(08\d{3}|57P0[123]|53300|57014|40001|40P01)$/;

/**
 * pg raises these without a code: the pool's connect timeout, a connection cut mid-query, and a
 * query on a client whose connection was cut or closed.
 */
const postgresMessages =
  /^(timeout exceeded when trying to connect|Connection terminated( unexpectedly| due to connection timeout)?|Client has encountered a connection error and is not queryable|Client was closed and is not queryable)$/;

export function isStorageUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  if (!('code' in error)) return error instanceof Error && postgresMessages.test(error.message);
  const code = String(error.code);
  return /^SQLITE_(BUSY|LOCKED|CANTOPEN|IOERR|FULL|READONLY)/.test(code) || networkCodes.includes(code) || postgresStates.test(code);
}
