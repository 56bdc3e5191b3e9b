import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DriverError } from '../../ports/share-driver.js';
import type { DriverRun, DriverStepName, ScanResult, ScanRun, ShareCapacity, ShareDriver, ShareLocation, TestResult } from '../../ports/share-driver.js';
import { formatMs, resolveHost, tcpConnect } from '../share-drivers/net-probes.js';
import { StepReporter, runTest } from '../share-drivers/step-reporter.js';
import { runSmbclient } from './run-smbclient.js';
import { parseListingEntry } from './smb-listing.js';
import { SmbclientSession, SmbclientSessionEnded } from './smbclient-session.js';
import { defaultSmbWalkOptions, walkSmb, type SmbWalkOptions } from './smb-walk.js';
import { classifySmbLine, vanishedStatuses, type SmbFailure, type SmbStep } from './smb-status.js';
import { negotiatedDialect, smbTestSummary } from './smb-summary.js';
import { parseSmbBlocksLine } from './smb-capacity.js';
import { smbTarget, type SmbTarget } from './smb-target.js';
import { withSmbclientFiles } from './smbclient-files.js';

export interface SmbDriverOptions {
  /** Debian's smbclient; a bare name is looked up on PATH. */
  smbclientPath?: string;
  /** Tuning of scans (sessions at once, progress interval); jobs use the defaults. */
  walk?: Partial<SmbWalkOptions>;
}

const steps: readonly DriverStepName[] = ['resolve_host', 'connect', 'negotiate_protocol', 'authenticate', 'open_path', 'list'];
// These four come out of one smbclient run (`ls`), told apart by the NT_STATUS it prints.
const smbclientSteps: readonly SmbStep[] = ['negotiate_protocol', 'authenticate', 'open_path', 'list'];
const notInstalled = 'smbclient is not installed (apt-get install smbclient)';

/** Keeps the last few lines that were neither listing nor a known failure, for odd exits. */
function tailKeeper(): { push(line: string): void; last(): string } {
  const lines: string[] = [];
  return {
    push(line) {
      if (line.trim() === '') return;
      lines.push(line.trim());
      if (lines.length > 3) lines.shift();
    },
    last: () => lines.at(-1) ?? '',
  };
}

function exitMessage(code: number | null, tail: string): string {
  return `smbclient failed (exit code ${String(code)})${tail ? `: ${tail}` : ''}`;
}

export function createSmbDriver(options: SmbDriverOptions = {}): ShareDriver {
  const smbclientPath = options.smbclientPath ?? 'smbclient';
  const walkOptions = options.walk ?? {};

  return {
    testSteps: () => steps,

    test(location: ShareLocation, run: DriverRun): Promise<TestResult> {
      const reporter = new StepReporter(steps, run);
      return runTest(async () => {
        let target: SmbTarget;
        try {
          target = smbTarget(location);
        } catch (error) {
          if (error instanceof DriverError) reporter.failNext(error.message);
          throw error;
        }
        const address = await reporter.step('resolve_host', () => resolveHost(target.host, run));
        await reporter.step('connect', async () => {
          (await tcpConnect(address, target.port, target.host, run.timeoutMs, run.signal)).destroy();
        });

        const started = performance.now();
        let failure: SmbFailure | undefined;
        let listed = false;
        let entries = 0;
        let dialect: string | undefined;
        let capacity: ShareCapacity | undefined;
        const tail = tailKeeper();
        const outcome = await withSmbclientFiles(target, async (files) => {
          const debugLogDir = join(files.dir, 'log');
          await mkdir(debugLogDir, { mode: 0o700 });
          const ran = await runSmbclient({
            smbclientPath,
            target,
            address,
            files,
            command: 'ls',
            totalTimeoutMs: run.timeoutMs,
            signal: run.signal,
            debugLogDir,
            onLine: (line) => {
              if (line.startsWith('  ')) {
                listed = true;
                const entry = parseListingEntry(line);
                if (entry !== undefined && entry.name !== '.' && entry.name !== '..') entries += 1;
              }
              const blocks = parseSmbBlocksLine(line);
              if (blocks !== undefined) {
                capacity = blocks;
                return;
              }
              const found = classifySmbLine(line, target, run.timeoutMs);
              // An empty share root (no `.`/`..` on Windows) lists as NO_SUCH_FILE: that is fine.
              if (found && !(found.step === 'list' && vanishedStatuses.has(found.status))) failure ??= found;
              else if (!found && !line.startsWith('  ')) tail.push(line);
            },
          });
          dialect = await negotiatedDialect(debugLogDir);
          return ran;
        });
        const elapsed = performance.now() - started;
        let end: { step: SmbStep; message: string } | undefined;
        if (outcome.notInstalled) end = { step: 'negotiate_protocol', message: notInstalled };
        else if (failure) end = failure;
        else if (outcome.timedOut) {
          end = {
            step: listed ? 'list' : 'negotiate_protocol',
            message: `host '${target.host}' did not complete the SMB ${listed ? 'listing' : 'session'} within ${formatMs(run.timeoutMs)}`,
          };
        } else if (outcome.exitCode !== 0) end = { step: 'negotiate_protocol', message: exitMessage(outcome.exitCode, tail.last()) };
        // One run covers the four steps: its time is reported on the step where it ended.
        for (const name of smbclientSteps) {
          if (name === end?.step) reporter.fail(name, elapsed, end.message);
          reporter.ok(name, end === undefined && name === 'list' ? elapsed : 0);
        }
        return { message: smbTestSummary(target, dialect, entries), capacity };
      });
    },

    async scan(location: ShareLocation, run: ScanRun): Promise<ScanResult> {
      const target = smbTarget(location);
      const address = await resolveHost(target.host, run);
      // As the test does: smbclient says nothing at all about a port it cannot reach (exit 1),
      // so the TCP connect is tried first, to fail with the test's own words.
      (await tcpConnect(address, target.port, target.host, run.timeoutMs, run.signal)).destroy();
      const tail = tailKeeper();
      // A scan's length is unknown, so each listing is bounded by silence, not by total time:
      // one huge directory is a single long SMB exchange.
      const idleMs = Math.max(60_000, run.timeoutMs * 6);
      const walked = await withSmbclientFiles(target, (files) =>
        walkSmb(
          () => new SmbclientSession({ smbclientPath, target, address, files }, idleMs),
          (line) => classifySmbLine(line, target, run.timeoutMs),
          (line) => tail.push(line),
          run,
          { ...defaultSmbWalkOptions, ...walkOptions },
        ).catch((error: unknown) => {
          if (!(error instanceof SmbclientSessionEnded)) throw error;
          if (error.notInstalled === 'smbclient') throw new DriverError(notInstalled);
          if (error.notInstalled === 'stdbuf') throw new DriverError('stdbuf is not installed (apt-get install coreutils)');
          if (error.timedOut) throw new DriverError(`host '${target.host}' sent nothing for ${formatMs(idleMs)} while listing the share`);
          throw new DriverError(exitMessage(error.exitCode, tail.last()));
        }),
      );
      const { totals, skipped, capacity } = walked;
      return {
        file_count: totals.file_count,
        file_size_sum: totals.file_size_sum,
        ...(skipped.count > 0 ? { skipped } : {}),
        ...(capacity === undefined ? {} : { capacity }),
      };
    },
  };
}
