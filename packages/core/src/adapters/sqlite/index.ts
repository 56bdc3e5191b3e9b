export { openSqliteStorage, migrateSqlite, type SqliteStorageOptions } from './sqlite-storage.js';
export { sqliteQuirks } from './sqlite-dialect-quirks.js';
export { checkSqliteFile, DatabaseDamagedError, restoreAdvice } from './sqlite-integrity.js';
export { backupSqliteFile, type SqliteBackupResult } from './sqlite-backup.js';
export { BackupRefusedError, inspectSqliteBackup, replaceDatabaseFile, secretThatDoesNotOpen, type BackupInspection } from './sqlite-restore.js';
// `dms restore` holds the data dir's lock (a SQLite file of its own) while it replaces the database.
export { lockDataDir } from '../../runtime/data-dir-lock.js';
