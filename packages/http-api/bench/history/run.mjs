// The history section of the bench (issue 22): `node bench/history/run.mjs [SECTION…] [--db postgres] [--pg-url URL]`
// after a build; `npm run bench` runs it after the rest (scripts/bench.mjs). Sections:
// jobs-list (jobs.list_*), audit (audit.*), purge (jobs.purge_*); all three without names.
// With --db postgres, jobs-list and audit run on PostgreSQL too (pg.* rows, a database of their
// own on the server of --pg-url, else DMS_BENCH_PG_URL, else the local one). Prints a table and
// merges its rows into bench/results.json: rows of the same names are replaced, the others kept.
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { round, withBudget } from '../lib.mjs';
import { mergeResults, printResults } from '../report.mjs';
import { assertBuilt } from '../server.mjs';
import { defaultPgServerUrl } from '../pg-bench.mjs';
import { jobsListBench } from './jobs-list.mjs';
import { auditOverheadBench } from './audit-overhead.mjs';
import { purgeStallBench } from './purge-stall.mjs';

const sections = ['jobs-list', 'audit', 'purge'];

function parseArgs(argv) {
  const options = { db: 'sqlite', pgUrl: process.env.DMS_BENCH_PG_URL || defaultPgServerUrl, sections: [] };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].startsWith('--') && argv[i].includes('=') ? argv[i].split(/=(.*)/s) : [argv[i], undefined];
    const value = () => inline ?? argv[++i];
    if (flag === '--db') options.db = value();
    else if (flag === '--pg-url') options.pgUrl = value();
    else if (sections.includes(flag)) options.sections.push(flag);
    else throw new Error(`bench history: unknown argument '${argv[i]}' (known: ${sections.join(', ')}, --db sqlite|postgres, --pg-url URL)`);
  }
  if (options.db !== 'sqlite' && options.db !== 'postgres') throw new Error(`bench history: --db must be sqlite or postgres, got '${options.db}'`);
  if (options.sections.length === 0) options.sections = sections;
  return options;
}

const args = parseArgs(process.argv.slice(2));
const quick = process.env.BENCH_QUICK === '1';
const adapters = args.db === 'postgres' ? ['sqlite', 'postgres'] : ['sqlite'];
const resultsFile = join(dirname(fileURLToPath(import.meta.url)), '..', 'results.json');
const budgetMs = 900_000;

const results = [];
const notes = [];
const targets = {};
const record = (name, value, unit) => results.push({ name, value: round(value, unit === 'ratio' ? 3 : 2), unit });
const t0 = performance.now();
const log = (message) => process.stderr.write(`[bench history +${((performance.now() - t0) / 1000).toFixed(1)}s] ${message}\n`);

/** The table, then this run's rows merged into results.json (a row of the same name replaced). */
function report() {
  printResults(results, targets, notes);
  mergeResults(resultsFile, results);
  console.log(`\nmerged ${results.length} rows into ${resultsFile} (bench history took ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
}

async function main() {
  assertBuilt();
  notes.push(
    `history: ${availableParallelism()} CPUs, Node ${process.version}, load average at start ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}; the load generator runs in the bench process and shares the CPUs with the server`,
  );
  const context = { pgServerUrl: args.pgUrl, quick, record, notes, log, targets };
  for (const section of args.sections) {
    for (const adapter of section === 'purge' ? ['sqlite'] : adapters) {
      try {
        if (section === 'jobs-list') await jobsListBench({ ...context, adapter });
        else if (section === 'audit') await auditOverheadBench({ ...context, adapter });
        else await purgeStallBench({ ...context, adapter });
      } catch (error) {
        notes.push(`ERROR in ${section} on ${adapter}: ${error instanceof Error ? error.message : String(error)}`);
        log(`${section} on ${adapter}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        process.exitCode = 1;
      }
    }
  }
}

await withBudget({ budgetMs, main, report, notes, log });
