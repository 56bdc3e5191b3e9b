export { openSqliteStorage, migrateSqlite, type SqliteStorageOptions } from './sqlite-storage.js';
export { sqliteQuirks } from './sqlite-dialect-quirks.js';
export { checkSqliteFile, DatabaseDamagedError, restoreAdvice } from './sqlite-integrity.js';
