import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startServer } from '@dms/http-api';
import { commandConfig } from './command-environment.js';
import { CliError } from './cli-error.js';
import { withDms, type Output } from './with-dms.js';

/** `dms serve`: the REST server of @dms/http-api on the data dir; resolves -1, the process keeps running. */
export async function serve(): Promise<number> {
  const config = commandConfig();
  process.stderr.write(`dms: data dir ${config.dataDir}\n`);
  const server = await startServer(config);
  // A bounded stop (DMS_SHUTDOWN_TIMEOUT_MS); a second signal forces it at once.
  let signals = 0;
  const shutdown = () => {
    signals += 1;
    if (signals > 1) return void server.stop({ now: true });
    void server.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`dms: stopping failed: ${error instanceof Error ? error.message : String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  // A hangup (a closed terminal) stops dms as gracefully; nothing is reloaded (no ExecReload in contrib/dms.service).
  process.on('SIGHUP', shutdown);
  return -1;
}

export async function migrate(values: { init?: boolean }, out: Output): Promise<number> {
  await withDms(async () => undefined, { createDatabase: true, ...(values.init ? { initDatabase: true } : {}) });
  out('migrations applied');
  return 0;
}

/** `dms check`: SQLite's full integrity check of the data dir's database, read-only. */
export async function check(out: Output): Promise<number> {
  const config = commandConfig();
  process.stderr.write(`dms: data dir ${config.dataDir}\n`);
  if (config.databaseUrl !== undefined)
    throw new CliError('dms check reads the SQLite database of the data dir; on PostgreSQL use its own tools (amcheck, pg_dump)');
  const file = join(config.dataDir, 'dms.sqlite');
  if (!existsSync(file)) throw new CliError(`no dms database at ${file}`);
  // Loaded here: only this command needs the SQLite adapter's checks.
  const { checkSqliteFile, restoreAdvice } = await import('@dms/core/sqlite');
  const problems = checkSqliteFile(file);
  if (problems.length === 0) {
    out(`${file}: ok`);
    return 0;
  }
  out(`${file}: damaged`);
  for (const problem of problems) out(`  ${problem}`);
  out(`to repair: ${restoreAdvice(file)}`);
  return 1;
}
