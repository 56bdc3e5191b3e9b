// `node scripts/with-runtime.mjs <command> [args…]`: runs the command on the repository's Node
// runtime (scripts/runtime.mjs). npm started this script on whatever node the machine has; the
// command (turbo and its tasks, the server) must run on a supported one, so this hands off.
import { spawn } from 'node:child_process';
import { ensureRuntime, runtimeEnv } from './runtime.mjs';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node scripts/with-runtime.mjs <command> [args…]');
  process.exit(2);
}
const child = spawn(command, args, { stdio: 'inherit', env: runtimeEnv(ensureRuntime()) });
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
