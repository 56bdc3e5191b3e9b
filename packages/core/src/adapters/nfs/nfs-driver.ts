import type { Socket } from 'node:net';
import { DriverError } from '../../ports/share-driver.js';
import type { DriverRun, DriverStepName, ScanResult, ScanRun, ShareCapacity, ShareDriver, ShareLocation, TestResult } from '../../ports/share-driver.js';
import { bareHost, portOption, resolveHost, tcpConnect } from '../share-drivers/net-probes.js';
import { StepReporter, runTest } from '../share-drivers/step-reporter.js';
import { inWords } from './nfs-messages.js';
import { readNfsCapacity, type NfsV3Mount } from './nfs-capacity.js';
import { mountPortOf, withSocket } from './nfs-mount.js';
import { listExports, lookupPath, nfs4, nullCall, programs } from './nfs-programs.js';
import { scanNfs, type NfsScanOptions, type NfsTarget } from './nfs-scan.js';

// No authenticate step: AUTH_SYS has no secret to check; access is the server's export rules.
const steps: readonly DriverStepName[] = ['resolve_host', 'connect', 'negotiate_protocol', 'open_path'];

function nfsTarget(location: ShareLocation): NfsTarget {
  const components = location.path.split('/').filter((part) => part !== '' && part !== '.');
  if (components.includes('..')) throw new DriverError(`path '${location.path}' must not contain '..'`);
  return {
    host: bareHost(location.host),
    port: portOption(location.options, 'port', 2049),
    version: location.type === 'nfs_v3' ? 3 : 4,
    path: `/${components.join('/')}`,
    components,
    mountPort: location.options.has('mountport') ? portOption(location.options, 'mountport', 0) : undefined,
  };
}

function isExported(path: string, exported: string): boolean {
  const base = exported.length > 1 ? exported.replace(/\/+$/, '') : exported;
  return path === base || path.startsWith(base === '/' ? '/' : `${base}/`);
}

/** v3: the export list from MOUNT (port from `mountport=` or rpcbind) must cover the path; resolves with the export that does, and MOUNT's port. */
async function checkExport(target: NfsTarget, address: string, run: DriverRun): Promise<NfsV3Mount> {
  const { host } = target;
  const port = await mountPortOf(host, address, target.mountPort, run);
  const mount = await tcpConnect(address, port, host, run.timeoutMs, run.signal);
  const exports = await withSocket(mount, (socket) =>
    inWords({ host, port, service: 'MOUNT v3', timeoutMs: run.timeoutMs }, () => listExports(socket, run.timeoutMs, run.signal)),
  );
  const covering = exports.find((exported) => isExported(target.path, exported));
  if (covering === undefined) {
    const shown = exports.length === 0 ? 'none' : exports.slice(0, 5).join(', ') + (exports.length > 5 ? ', ...' : '');
    throw new DriverError(`path '${target.path}' is not exported by host '${host}' (exports: ${shown})`);
  }
  return { address, exported: covering, mountPort: port };
}

/** What a passed test reached: "reached export '/export' on 10.0.0.5 (NFS v4)". */
function reachedSummary(target: NfsTarget, outcome: { exported: string } | { unchecked: string } | undefined): string {
  const { host, path, version } = target;
  if (outcome === undefined) return `reached export '${path}' on ${host} (NFS v${version})`;
  if ('unchecked' in outcome) return `reached ${host} (NFS v${version}); ${outcome.unchecked}`;
  const covers = outcome.exported === path ? '' : `, which covers '${path}'`;
  return `reached export '${outcome.exported}' on ${host} (NFS v${version})${covers}`;
}

/** v4: PUTROOTFH + LOOKUPs on the connection the NULL call used; resolves a reason to skip. */
async function checkPath(target: NfsTarget, socket: Socket, run: DriverRun): Promise<string | undefined> {
  const { host, path } = target;
  const outcome = await inWords({ host, port: target.port, service: 'NFS v4', timeoutMs: run.timeoutMs }, () =>
    lookupPath(socket, target.components, run.timeoutMs, run.signal),
  );
  switch (outcome.status) {
    case nfs4.ok:
      if (!outcome.isDirectory) throw new DriverError(`path '${path}' is not a directory`);
      return undefined;
    case nfs4.minorVersMismatch:
      return 'path not checked: the server does not speak NFS 4.0 (4.1+ needs a session)';
    case nfs4.noent:
      throw new DriverError(`path '${path}' not found on host '${host}'`);
    case nfs4.notdir:
      throw new DriverError(`path '${path}' is not a directory`);
    case nfs4.access:
    case 1: // NFS4ERR_PERM
      throw new DriverError(`access to path '${path}' denied by host '${host}'`);
    case nfs4.wrongsec:
      throw new DriverError(`host '${host}' requires other security (Kerberos?) for path '${path}'`);
    default:
      throw new DriverError(`looking up path '${path}' on host '${host}' failed (NFS4 error ${outcome.status})`);
  }
}

/** `options` tune the scan's walk (see NfsScanOptions); jobs use the defaults. */
export function createNfsDriver(options: NfsScanOptions = {}): ShareDriver {
  return {
    testSteps: () => steps,

    test(location: ShareLocation, run: DriverRun): Promise<TestResult> {
      const reporter = new StepReporter(steps, run);
      return runTest(async () => {
        let target: NfsTarget;
        try {
          target = nfsTarget(location);
        } catch (error) {
          if (error instanceof DriverError) reporter.failNext(error.message);
          throw error;
        }
        const { host, port, version } = target;
        const address = await reporter.step('resolve_host', () => resolveHost(host, run));
        const socket = await reporter.step('connect', () => tcpConnect(address, port, host, run.timeoutMs, run.signal));
        let found: NfsV3Mount | { unchecked: string } | undefined;
        let capacity: ShareCapacity | undefined;
        let sizeUnknown = '';
        await withSocket(socket, async () => {
          await reporter.step('negotiate_protocol', () =>
            inWords({ host, port, service: `NFS v${version}`, timeoutMs: run.timeoutMs }, () =>
              nullCall(socket, programs.nfs, version, run.timeoutMs, run.signal),
            ),
          );
          await reporter.stepOrSkip('open_path', async () => {
            if (version === 4) {
              const unchecked = await checkPath(target, socket, run);
              if (unchecked !== undefined) found = { unchecked };
              return unchecked;
            }
            found = await checkExport(target, address, run);
            return undefined;
          });
          // The size is a bonus of a passed test: a server that will not tell it fails nothing.
          if (found === undefined || 'exported' in found) {
            capacity = await readNfsCapacity(socket, target, found, run).catch((error: unknown) => {
              if (!(error instanceof DriverError)) throw error;
              sizeUnknown = `; its size is unknown: ${error.message}`;
              return undefined;
            });
          }
        });
        return { message: reachedSummary(target, found) + sizeUnknown, capacity };
      });
    },

    async scan(location: ShareLocation, run: ScanRun): Promise<ScanResult> {
      const target = nfsTarget(location);
      const address = await resolveHost(target.host, run);
      // v3: the export covering the path is the one MOUNT hands a root handle for.
      const v3 = target.version === 3 ? await checkExport(target, address, run) : undefined;
      const result = await scanNfs(target, address, v3?.exported, run, options);
      // As for a test, the size is a bonus: a server that will not tell it fails no scan.
      const capacity = await withSocket(await tcpConnect(address, target.port, target.host, run.timeoutMs, run.signal), (socket) =>
        readNfsCapacity(socket, target, v3, run),
      ).catch((error: unknown) => {
        if (error instanceof DriverError) return undefined;
        throw error;
      });
      return capacity ? { ...result, capacity } : result;
    },
  };
}
