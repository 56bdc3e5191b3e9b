import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** `dms serve` (packages/cli) run from source in a child process, as an operator starts it: a file path, not an import (docs/decisions/136-cli-package.md). */
const cliMain = fileURLToPath(new URL('../../../cli/src/main.ts', import.meta.url));

export interface ServeProcess {
  child: ChildProcess;
  /** The origin it serves at, read from its 'dms serving' line. */
  url: string;
  port: number;
  /** Everything it wrote to stdout and stderr so far. */
  output: () => string;
  exited: Promise<{ code: number | null; at: number }>;
}

/**
 * Starts `dms serve` on `dataDir` at a free port, logging at info, with `env` over the
 * defaults; resolves once it serves. Its stdout and stderr are collected into `output()`.
 */
export async function startServeProcess(dataDir: string, adminPassword: string, env: Record<string, string> = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', cliMain, 'serve'], {
    env: {
      ...process.env,
      DMS_DATA_DIR: dataDir,
      DMS_PORT: '0',
      DMS_ADMIN_PASSWORD: adminPassword,
      DMS_LOG_LEVEL: 'info',
      DMS_RATE_LIMIT_PER_MINUTE: '1000000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; at: number }>((resolve) => child.once('exit', (code) => resolve({ code, at: performance.now() })));
  const url = await new Promise<string>((resolve, reject) => {
    const look = () => {
      const found = /"url":"(http:\/\/[^"]+?)\/api\/v2"/.exec(output)?.[1];
      if (found) return resolve(found);
      if (child.exitCode !== null) return reject(new Error(`dms exited before serving: ${output}`));
      setTimeout(look, 20);
    };
    look();
  });
  return { child, url, port: Number(new URL(url).port), output: () => output, exited };
}

/** Resolves when `condition` holds, checking every 20 ms; fails after `withinMs`. */
export async function until(condition: () => Promise<boolean> | boolean, withinMs = 10_000): Promise<void> {
  const deadline = performance.now() + withinMs;
  while (!(await condition())) {
    if (performance.now() > deadline) throw new Error(`condition not met within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The exit, or undefined if none came within `withinMs`. */
export async function exitWithin(dms: ServeProcess, withinMs: number): Promise<{ code: number | null; at: number } | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), withinMs)));
  const exit = await Promise.race([dms.exited, late]);
  clearTimeout(timer);
  return exit;
}
