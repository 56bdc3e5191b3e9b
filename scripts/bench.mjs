// `npm run bench [-- ARGS…]`: installs and builds as needed, then runs every package's bench
// through turbo. ARGS (e.g. `--db postgres`) are for the http-api bench only: with ARGS the
// other benches run first without them, then the http-api bench with them; without ARGS it is
// the one `turbo run bench` of before. Then the http-api history section (jobs list, audit cost,
// purge; packages/http-api/bench/history/run.mjs), with the same ARGS, merges its rows into the
// http-api results; then the keep-watch section (the scheduler over 10,000 shares;
// packages/http-api/bench/watch/run.mjs) likewise; then the notifications section
// (packages/http-api/bench/notify/run.mjs). With `--scale` (issue 48) only the scale section runs
// (packages/http-api/bench/scale/run.mjs: a site at its real size; `--scale-size small` divides
// its counts by 100 for a quick check; `--db postgres` measures it on PostgreSQL, pg.scale.* rows),
// with the other ARGS.
import { spawnSync } from 'node:child_process';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const env = { ...process.env, PATH: [join(root, 'node_modules', '.bin'), process.env.PATH].join(delimiter) };

function run(command, commandArgs) {
  const result = spawnSync(command, commandArgs, { cwd: root, env, stdio: 'inherit' });
  if (result.error) throw result.error;
  if (result.status !== 0) process.exit(result.status ?? 1);
}

run(process.execPath, [join(root, 'scripts', 'bootstrap.mjs')]);
run('turbo', ['run', 'build', '--filter=@dms/cli...', '--output-logs=errors-only']);
if (args.includes('--scale')) {
  run(process.execPath, [join(root, 'packages', 'http-api', 'bench', 'scale', 'run.mjs'), ...args.filter((arg) => arg !== '--scale')]);
  process.exit(0);
}
if (args.length === 0) {
  run('turbo', ['run', 'bench', '--concurrency=1']);
} else {
  run('turbo', ['run', 'bench', '--concurrency=1', '--filter=!@dms/http-api']);
  run('turbo', ['run', 'bench', '--filter=@dms/http-api', '--', ...args]);
}
run(process.execPath, [join(root, 'packages', 'http-api', 'bench', 'history', 'run.mjs'), ...args]);
run(process.execPath, [join(root, 'packages', 'http-api', 'bench', 'watch', 'run.mjs'), ...args]);
// The notifications section (1,000 events to 5 webhook channels) takes no ARGS: SQLite only.
run(process.execPath, [join(root, 'packages', 'http-api', 'bench', 'notify', 'run.mjs')]);
