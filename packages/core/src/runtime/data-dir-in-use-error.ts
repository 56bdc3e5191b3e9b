// Its own module, apart from the lock that throws it: a host recognises the error without
// loading better-sqlite3, which the lock needs.
export class DataDirInUseError extends Error {
  override readonly name = 'DataDirInUseError';
  constructor(
    readonly dataDir: string,
    readonly pid: number | undefined,
  ) {
    super(`data dir ${dataDir} is in use by ${pid === undefined ? 'another process' : `process ${pid}`}; stop it, or set DMS_DATA_DIR to another directory`);
  }
}
