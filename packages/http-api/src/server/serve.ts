import type { Server } from 'node:http';
import type { HttpBindings, Http2Bindings } from '@hono/node-server';
import { listenHttp, listeningUrl } from './listen.js';
export { StartupError } from './listen.js';
import { openDms, type Dms } from '@dms/core/runtime';
import { createApp, apiBase } from '../app.js';
import { createLogger, flushLogger } from '../http/logger.js';
import type { ServerConfig } from './config.js';
import { dmsOptions } from './open.js';
import { gracefulShutdown } from './shutdown.js';
import { startTracing } from './tracing.js';

export interface RunningServer {
  dms: Dms;
  url: string;
  /**
   * A bounded, graceful stop (issue 21 item 4; see shutdown.ts); the same promise on every
   * call. `{ now: true }` (a second signal) forces what remains at once.
   */
  stop(options?: { now?: boolean }): Promise<void>;
}

/** The generated password goes to stderr only, never to the log a shipper forwards; printed once, here. */
function announceFirstAdmin(firstAdmin: Dms['firstAdmin'], logger: ReturnType<typeof createLogger>): void {
  if (firstAdmin.generatedPassword) {
    process.stderr.write(
      `[dms] created user 'admin' with password: ${firstAdmin.generatedPassword}\n` +
        `[dms] it is shown only this once; lost it? set another: echo 'a-new-password' | npx dms user passwd admin\n`,
    );
  } else if (firstAdmin.created) {
    logger.info('created user admin with the password from DMS_ADMIN_PASSWORD');
  }
}

/** Points in the start-up a test may hold, to look at the service meanwhile. */
export interface StartHooks {
  /** Once the port listens, before the first admin is created; with the API's URL. */
  beforeFirstAdmin?: (url: string) => Promise<void>;
}

type Fetch = (request: Request, env: HttpBindings | Http2Bindings) => Response | Promise<Response>;

/**
 * Every answer until start-up is finished, /healthz and /readyz included (issue 40 item 16): a
 * readiness probe, or a script that waits for one, must not take the service as ready before the
 * first admin exists and every component runs.
 */
const starting: Fetch = () =>
  new Response(JSON.stringify({ details: {}, messages: ['dms is starting; try again shortly'] }), {
    status: 503,
    headers: { 'Content-Type': 'application/json; charset=UTF-8', 'Retry-After': '1', 'Cache-Control': 'no-store' },
  });

/**
 * `dms serve`: the whole service from openDms, served over HTTP until stopped. The port is bound
 * first: a start that cannot listen (EADDRINUSE) fails before the data dir is touched (no
 * database, no key, no job engine; issue 25 item 2, issue 40 item 16), and answers 503 "starting"
 * until the service is open and the first admin exists; then the app answers.
 */
export async function startServer(config: ServerConfig, hooks: StartHooks = {}): Promise<RunningServer> {
  // The metrics are made with the app, after the logger: dropped lines are counted from then on.
  let logDropped = (_bytes: number) => {};
  // Before anything that may start a span: with the OTEL_* variables unset, nothing is loaded.
  const tracing = await startTracing();
  const logger = createLogger(config.logLevel, undefined, config.logFormat, { onDrop: (bytes) => logDropped(bytes), traced: tracing !== undefined });
  let answer: Fetch = starting;
  const server = await listenHttp((request, env) => answer(request, env), config.host, config.port, undefined, {
    limits: config.http,
    // Not in the access log (the app never saw them); a flood of them would drown it at info.
    onParserRefusal: (refusal) => logger.debug({ req_id: refusal.requestId, status: refusal.status, code: refusal.code }, 'request refused by the HTTP parser'),
  });
  const url = listeningUrl(server, config.host, config.port, apiBase);
  let dms: Dms | undefined;
  try {
    let trapFailures = () => {};
    dms = await openDms({ ...dmsOptions(config, 'service'), createFirstAdmin: false, log: logger, onTrapSendError: () => trapFailures() });
    const opened = dms;
    const { app, metrics } = createApp({
      core: opened.core,
      logger,
      trustedProxies: config.trustedProxies,
      snmpAgent: () => opened.snmpAgent(),
      tracer: tracing?.requests,
    });
    trapFailures = () => metrics.trapSendFailures.inc();
    logDropped = (bytes) => metrics.logDroppedBytes.inc(bytes);
    await hooks.beforeFirstAdmin?.(url);
    announceFirstAdmin(await opened.createFirstAdmin(), logger);
    answer = app.fetch;
  } catch (error) {
    await new Promise((resolve) => server.close(resolve));
    await dms?.close();
    await tracing?.shutdown().catch(() => {});
    throw error;
  }
  // After the first admin: whoever waits for this line (a test, a script) can sign in at once.
  logger.info({ url, data_dir: config.dataDir }, 'dms serving');

  const shutdown = gracefulShutdown({ server: server as Server, dms, logger, timeoutMs: config.shutdownTimeoutMs });
  // The last lines ('dms stopped') are written before the process exits, within what is left of
  // DMS_SHUTDOWN_TIMEOUT_MS: a reader that stopped reading never holds the stop (issue 40 item 15).
  let stopped: Promise<void> | undefined;
  let stopBy: number | undefined;
  const stop = (options?: { now?: boolean }) => {
    stopBy ??= performance.now() + config.shutdownTimeoutMs;
    const closed = options?.now ? shutdown.now() : shutdown.begin();
    return (stopped ??= closed
      .then(() =>
        Promise.race([tracing?.shutdown().catch(() => {}), new Promise((resolve) => setTimeout(resolve, Math.max(0, stopBy! - performance.now())).unref())]),
      )
      .then(() => flushLogger(logger, Math.max(0, stopBy! - performance.now()))));
  };
  return { dms, url, stop };
}
