import BetterSqlite3 from 'better-sqlite3';

/** The slice of better-sqlite3 the checks use. */
interface PragmaRunner {
  pragma(source: string, options?: { simple: true }): unknown;
}

/** At most this many problems are kept: a badly damaged file reports thousands. */
const maxProblems = 20;

/**
 * The page cache (KiB) a check reads the file through. A check reads every page once: with the
 * connection's own cache (16 MB, better-sqlite3's default) the start-up quick_check left the
 * service's cache full of pages its requests might never read, 16 MB of resident memory from the
 * first second; with this one it took no longer (measured, docs/decisions/188-…).
 */
const checkCacheKib = 512;

/**
 * SQLite's own check of the file: `quick` (PRAGMA quick_check: every page and record, not
 * index contents against their tables) at start, `full` (integrity_check, plus the foreign
 * keys) for `dms check`. Resolves the problems found, none for a sound database; a file
 * SQLite cannot read at all (not a database, a damaged header) is one problem too.
 */
export function integrityProblems(database: PragmaRunner, mode: 'quick' | 'full'): string[] {
  try {
    const cacheSize = Number(database.pragma('cache_size', { simple: true }));
    database.pragma(`cache_size = -${checkCacheKib}`);
    try {
      return checkProblems(database, mode);
    } finally {
      database.pragma(`cache_size = ${cacheSize}`);
    }
  } catch (error) {
    return [`${(error as { code?: string }).code ?? 'error'}: ${error instanceof Error ? error.message : String(error)}`];
  }
}

function checkProblems(database: PragmaRunner, mode: 'quick' | 'full'): string[] {
  const rows = database.pragma(`${mode === 'quick' ? 'quick_check' : 'integrity_check'}(${maxProblems})`) as Array<Record<string, string>>;
  const problems = rows.map((row) => Object.values(row)[0] ?? '').filter((text) => text !== 'ok');
  if (mode === 'full' && problems.length === 0) {
    const orphans = database.pragma('foreign_key_check') as Array<{ table: string; rowid: number; parent: string }>;
    for (const orphan of orphans.slice(0, maxProblems)) problems.push(`row ${orphan.rowid} of ${orphan.table} refers to a missing row of ${orphan.parent}`);
  }
  return problems;
}

/** `dms check`: the full check of a database file, read-only, beside a running service. */
export function checkSqliteFile(file: string): string[] {
  let database: BetterSqlite3.Database;
  try {
    database = new BetterSqlite3(file, { readonly: true, fileMustExist: true, timeout: 1000 });
  } catch (error) {
    return [`${(error as { code?: string }).code ?? 'error'}: ${error instanceof Error ? error.message : String(error)}`];
  }
  try {
    return integrityProblems(database, 'full');
  } finally {
    database.close();
  }
}

/** What an operator does about a damaged file, in every message that reports one. */
export function restoreAdvice(file: string): string {
  return (
    `stop dms, keep a copy of the damaged file, and restore ${file} from your last backup ('dms restore BACKUP', README: Backups); ` +
    `\`sqlite3 ${file} .recover\` can save what is still readable`
  );
}

/**
 * The first problems SQLite names, on one line: a quick_check row may hold many lines (one per
 * damaged cell), and the refusal is read in a terminal or a log line.
 */
function summarize(problems: readonly string[]): string {
  const lines = problems
    .flatMap((problem) => problem.split('\n'))
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('***'));
  return lines.slice(0, 3).join('; ') + (lines.length > 3 ? `; … (${lines.length} in all)` : '');
}

/** The start-up refusal: the database failed PRAGMA quick_check. */
export class DatabaseDamagedError extends Error {
  override readonly name = 'DatabaseDamagedError';
  constructor(
    readonly file: string,
    readonly problems: string[],
  ) {
    super(
      `the database ${file} is damaged (${summarize(problems)}): dms does not serve it. ` +
        `${restoreAdvice(file)}. Run 'dms check' for the full report; to serve it as it is anyway, set DMS_ALLOW_DAMAGED_DATABASE=1`,
    );
  }
}
