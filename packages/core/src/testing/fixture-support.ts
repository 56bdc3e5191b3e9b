import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { requireTools, type ToolCheck } from './require-tool.js';

/**
 * Helpers for the test fixtures that run real servers (Samba, NFS-Ganesha). Kept apart from
 * the drivers: nothing here is used outside tests.
 */

/** requireTools plus "we are root": the daemons switch users and bind privileged resources. */
export function requireRootTools(names: string[], install: string): ToolCheck {
  const check = requireTools(names, install);
  if (!check.ok || process.getuid?.() === 0) return check;
  const reason = `${names.join(', ')} need root to run as test servers`;
  if (process.env['CI'] === 'true') throw new Error(`CI needs ${reason}`);
  console.warn(`[skip] ${reason}`);
  return { ok: false, paths: check.paths, reason };
}

/** A TCP port free on 127.0.0.1 right now (the small race until the server binds is accepted). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** True when something accepts TCP connections on 127.0.0.1:port. */
export function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Waits until `port` accepts connections; fails early, with the log, if the daemon died. */
export async function waitForPort(port: number, child: ChildProcess, logFile: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${String(child.spawnfile)} exited (${String(child.exitCode ?? child.signalCode)}):\n${await logTail(logFile)}`);
    }
    if (await canConnect(port)) return;
    await sleep(100);
  }
  throw new Error(`${String(child.spawnfile)} did not listen on port ${port} within ${timeoutMs} ms:\n${await logTail(logFile)}`);
}

export async function logTail(file: string, lines = 30): Promise<string> {
  try {
    return (await readFile(file, 'utf8')).split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/**
 * Daemons run detached (their own process group, which they may signal as a whole), so they
 * would outlive a test runner that dies; this kills them when the runner exits.
 */
export function killOnExit(child: ChildProcess): void {
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  child.once('exit', () => process.removeListener('exit', kill));
}

/** SIGTERM, then SIGKILL if the daemon is still there after `graceMs`. */
export async function stopProcess(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}
