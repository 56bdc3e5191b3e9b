// `node scripts/with-runtime.mjs [--node=VERSION] <command> [args…]`: runs the command on the
// repository's Node runtime (scripts/runtime.mjs), or on Node VERSION (one pinned in
// .node-integrity.json: CI's second Node line). npm started this script on whatever node the
// machine has; the command (turbo and its tasks, the server) must run on a supported one, so
// this hands off.
import { spawn } from 'node:child_process';
import { ensureNode, ensureRuntime, runtimeEnv } from './runtime.mjs';

const argv = process.argv.slice(2);
const version = /^--node=(\d+\.\d+\.\d+)$/.exec(argv[0] ?? '')?.[1];
const [command, ...args] = version === undefined ? argv : argv.slice(1);
if (!command) {
  console.error('usage: node scripts/with-runtime.mjs [--node=VERSION] <command> [args…]');
  process.exit(2);
}
const runtime = version === undefined ? ensureRuntime() : ensureNode(version);
const child = spawn(command, args, { stdio: 'inherit', env: runtimeEnv(runtime) });
// A stop meant for this process is the child's (a supervisor or npm signals this pid). SIGINT
// from a terminal's Ctrl-C reaches the child already (same process group): passing it on would
// be a second signal, which `dms serve` takes as "force the stop now".
for (const signal of ['SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
process.on('SIGINT', () => {});
child.on('error', (error) => {
  console.error(`[dms] cannot run ${command}: ${error.message}`);
  process.exit(127);
});
child.on('exit', (code, signal) => {
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  }
  process.exit(code ?? 1);
});
