import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolCheck } from './require-tool.js';
import { freePort, killOnExit, logTail, requireRootTools, stopProcess, waitForPort } from './fixture-support.js';

/**
 * Test fixture: a private smbd on 127.0.0.1 and a free high port, every state directory in a
 * temp dir, so it neither needs nor touches the host's Samba. Root only (smbd switches to the
 * logged-on user); other packages' tests reuse it for end-to-end share tests.
 */

export interface SambaUser {
  /** Also a Unix account: Samba's tdbsam needs one. Created (system, no login) if absent. */
  name: string;
  password: string;
}

export interface SambaServerOptions {
  /** Share name → directory; served read-only, as root, so any test tree is readable. */
  shares: Record<string, string>;
  /** The Unix account the shares are served as (default root); another one meets the tree's permissions. */
  forceUser?: string;
  users: SambaUser[];
  /** smb.conf `server min protocol` (default NT1, so smb_v1 can be tested too). */
  minProtocol?: string;
  /** smb.conf `server max protocol` (default: Samba's, SMB3_11). */
  maxProtocol?: string;
}

export interface SambaServer {
  host: string;
  port: number;
  /** The fixture's temp dir (config, state, log). */
  dir: string;
  log(): Promise<string>;
  /** smbd's main process; its children are its helpers and one process per client connection. */
  pid: number;
  stop(): Promise<void>;
}

export const sambaInstall = 'apt-get install samba smbclient';

/** For `describe.skipIf(!check.ok)`: smbd, smbpasswd, smbclient and root. */
export function sambaCheck(): ToolCheck {
  return requireRootTools(['smbd', 'smbpasswd', 'smbclient', 'useradd'], sambaInstall);
}

function ensureUnixUser(name: string): void {
  const exists = () => {
    try {
      execFileSync('id', ['-u', name], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  };
  if (exists()) return;
  try {
    execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', name], {
      stdio: 'pipe',
      env: { ...process.env, PATH: `${process.env['PATH'] ?? ''}:/usr/sbin:/sbin` },
    });
  } catch (error) {
    // Another suite may have created it at the same moment.
    if (!exists()) throw error;
  }
}

export async function startSambaServer(options: SambaServerOptions): Promise<SambaServer> {
  const dir = mkdtempSync(join(tmpdir(), 'dms-samba-'));
  const state = (name: string) => {
    const path = join(dir, name);
    mkdirSync(path, { recursive: true });
    return path;
  };
  const port = await freePort();
  const logFile = join(dir, 'log.smbd');
  const configFile = join(dir, 'smb.conf');
  const global = [
    '[global]',
    `  smb ports = ${port}`,
    '  interfaces = 127.0.0.1',
    '  bind interfaces only = yes',
    '  disable netbios = yes',
    '  server role = standalone server',
    '  passdb backend = tdbsam',
    `  lock directory = ${state('lock')}`,
    `  state directory = ${state('state')}`,
    `  cache directory = ${state('cache')}`,
    `  pid directory = ${state('pid')}`,
    `  private dir = ${state('private')}`,
    `  ncalrpc dir = ${state('ncalrpc')}`,
    `  log file = ${logFile}`,
    '  logging = file',
    '  map to guest = never',
    // What the driver relies on: NTLMv2 only, so an NTLMv1 fallback would fail the tests.
    '  ntlm auth = ntlmv2-only',
    `  server min protocol = ${options.minProtocol ?? 'NT1'}`,
    ...(options.maxProtocol ? [`  server max protocol = ${options.maxProtocol}`] : []),
    '  load printers = no',
    '  printing = bsd',
    '  printcap name = /dev/null',
    '  disable spoolss = yes',
  ];
  const shares = Object.entries(options.shares).flatMap(([name, path]) => [
    `[${name}]`,
    `  path = ${path}`,
    '  read only = yes',
    `  force user = ${options.forceUser ?? 'root'}`,
  ]);
  writeFileSync(configFile, `${[...global, ...shares].join('\n')}\n`);

  for (const user of options.users) {
    ensureUnixUser(user.name);
    execFileSync('smbpasswd', ['-c', configFile, '-a', '-s', user.name], {
      input: `${user.password}\n${user.password}\n`,
      stdio: ['pipe', 'ignore', 'pipe'],
      env: { ...process.env, PATH: `${process.env['PATH'] ?? ''}:/usr/sbin:/sbin` },
    });
  }

  const child = spawn('smbd', ['--foreground', '--no-process-group', '-s', configFile], {
    // Its own process group: on shutdown smbd signals its whole group, which would otherwise
    // be the test runner's.
    detached: true,
    stdio: 'ignore',
    env: { ...process.env, PATH: `${process.env['PATH'] ?? ''}:/usr/sbin:/sbin` },
  });
  killOnExit(child);
  const stop = async () => {
    await stopProcess(child);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitForPort(port, child, logFile);
  } catch (error) {
    await stop();
    throw error;
  }
  return { host: '127.0.0.1', port, dir, log: () => logTail(logFile, 200), pid: child.pid as number, stop };
}
