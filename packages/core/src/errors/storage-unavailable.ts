/**
 * Errors that mean "the database cannot serve now" rather than "this request is wrong":
 * SQLite busy, locked, full or unreadable; PostgreSQL unreachable or shutting down.
 * They answer 503 with Retry-After instead of 500.
 *
 * ECONNRESET and ETIMEDOUT are a database connection's codes here, yet a client socket
 * reset while its request body is read raises the same ECONNRESET: callers must sort out
 * client aborts by where the error came from before asking this (http-api's ClientAbortError).
 */
export function isStorageUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  const code = String(error.code);
  return (
    /^SQLITE_(BUSY|LOCKED|CANTOPEN|IOERR|FULL|READONLY)/.test(code) ||
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', '57P01', '57P03', '53300'].includes(code)
  );
}
