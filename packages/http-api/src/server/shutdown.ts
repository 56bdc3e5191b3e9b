import type { Server } from 'node:http';
import type { Dms } from '@dms/core/runtime';
import type { createLogger } from '../http/logger.js';
import { closeGracefully, type HttpCloseOutcome, type HttpClosing } from './graceful-close.js';

type Logger = Pick<ReturnType<typeof createLogger>, 'info' | 'warn' | 'error'>;

export interface ShutdownOptions {
  server: Server;
  dms: Dms;
  logger: Logger;
  /** DMS_SHUTDOWN_TIMEOUT_MS: the whole stop, from the signal to the storage closed. */
  timeoutMs: number;
}

export interface GracefulShutdown {
  /** Starts the stop (once; later calls get the same promise); resolves within the timeout. */
  begin(): Promise<void>;
  /** Starts it if need be and forces what remains at once (a second signal). */
  now(): Promise<void>;
}

/**
 * When requests and jobs are cut off: the last quarter of the timeout, at most 1 s, is kept
 * for what comes after (requeueing the cut-off jobs, closing the storage).
 */
export function forceAfterMs(timeoutMs: number): number {
  return timeoutMs - Math.min(1_000, Math.floor(timeoutMs / 4));
}

/** Whether `promise` settled within `ms`; a rejection still rejects. */
async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), Math.max(0, ms))));
  try {
    return await Promise.race([promise.then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The stop of `dms serve` on SIGTERM or SIGINT (issue 21 item 4), bounded by `timeoutMs`:
 * - at once: no new connection; idle kept-alive connections closed; no job claimed; every
 *   long-poll answered with the job's status as it is;
 * - requests in flight are answered with `Connection: close`, and running jobs go on, until
 *   `forceAfterMs`; then the connections left are destroyed and the jobs' drivers aborted,
 *   each such job put back in the queue (the next start or another replica runs it);
 * - then the service closes (traps, agent, storage, the data dir's lock), and the stop
 *   resolves by `timeoutMs` even if that close hangs (what was committed stays committed).
 * A request is answered 2xx only after its write committed, so no acknowledged write is lost.
 */
export function gracefulShutdown({ server, dms, logger, timeoutMs }: ShutdownOptions): GracefulShutdown {
  let stopping: Promise<void> | undefined;
  let closing: HttpClosing | undefined;
  const engine = dms.engine;

  const run = async () => {
    const started = performance.now();
    const remaining = () => timeoutMs - (performance.now() - started);
    const cutOffAfter = forceAfterMs(timeoutMs);
    closing = closeGracefully(server, cutOffAfter);
    engine.drain();
    logger.info({ timeout_ms: timeoutMs }, 'dms stopping: no new connections or jobs; requests in flight and running jobs get until the timeout');
    let http: HttpCloseOutcome = { open: 0, forced: 0 };
    const [, jobsEnded] = await Promise.all([
      // Bounded too: a connection Node still counts after it was destroyed must not hold the exit.
      within(
        closing.done.then((outcome) => (http = outcome)),
        remaining(),
      ),
      within(engine.stop({ graceMs: cutOffAfter }), remaining()),
    ]);
    const requeued = engine.requeued;
    if (http.forced > 0) logger.warn({ connections: http.forced }, 'connections still busy at the shutdown timeout were closed without an answer');
    if (requeued.length > 0) logger.info({ job_ids: requeued }, 'jobs still running at the shutdown timeout were put back in the queue');
    if (!jobsEnded) logger.warn({}, 'a job did not end when aborted at the shutdown timeout; the next start fails it "interrupted"');
    const closed = await within(dms.close(), remaining());
    const elapsedMs = Math.round(performance.now() - started);
    if (closed) logger.info({ elapsed_ms: elapsedMs, connections: http.open, requeued: requeued.length }, 'dms stopped');
    else logger.error({ elapsed_ms: elapsedMs }, 'dms did not finish closing within DMS_SHUTDOWN_TIMEOUT_MS; exiting anyway (committed writes are kept)');
  };

  const begin = () => (stopping ??= run());
  return {
    begin,
    now: () => {
      const stopped = begin();
      closing?.force();
      void engine.stop();
      return stopped;
    },
  };
}
