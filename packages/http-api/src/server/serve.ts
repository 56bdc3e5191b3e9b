import type { Server } from 'node:http';
import type { ServerType } from '@hono/node-server';
import { listenHttp, listeningUrl } from './listen.js';
export { StartupError } from './listen.js';
import { openDms, type Dms } from '@dms/core/runtime';
import { createApp, apiBase } from '../app.js';
import { createLogger, flushLogger } from '../http/logger.js';
import type { ServerConfig } from './config.js';
import { dmsOptions } from './open.js';
import { gracefulShutdown } from './shutdown.js';

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

/** `dms serve`: the whole service from openDms, served over HTTP until stopped. */
export async function startServer(config: ServerConfig): Promise<RunningServer> {
  // The metrics are made with the app, after the logger: dropped lines are counted from then on.
  let logDropped = (_bytes: number) => {};
  const logger = createLogger(config.logLevel, undefined, config.logFormat, { onDrop: (bytes) => logDropped(bytes) });
  let trapFailures = () => {};
  // The first admin waits for the listening port (issue 25 item 2): a start that fails to listen
  // (EADDRINUSE) must not create an admin whose only printed password scrolls away with the error.
  const dms = await openDms({ ...dmsOptions(config, 'service'), createFirstAdmin: false, log: logger, onTrapSendError: () => trapFailures() });
  const { app, metrics } = createApp({ core: dms.core, logger, trustedProxies: config.trustedProxies, snmpAgent: () => dms.snmpAgent() });
  trapFailures = () => metrics.trapSendFailures.inc();
  logDropped = (bytes) => metrics.logDroppedBytes.inc(bytes);
  let server: ServerType;
  try {
    server = await listenHttp(app.fetch, config.host, config.port, undefined, {
      limits: config.http,
      // Not in the access log (the app never saw them); a flood of them would drown it at info.
      onParserRefusal: (refusal) =>
        logger.debug({ req_id: refusal.requestId, status: refusal.status, code: refusal.code }, 'request refused by the HTTP parser'),
    });
  } catch (error) {
    await dms.close();
    throw error;
  }
  const url = listeningUrl(server, config.host, config.port, apiBase);
  try {
    announceFirstAdmin(await dms.createFirstAdmin(), logger);
  } catch (error) {
    await new Promise((resolve) => server.close(resolve));
    await dms.close();
    throw error;
  }
  // After the first admin: whoever waits for this line (a test, a script) can sign in at once.
  logger.info({ url, data_dir: config.dataDir }, 'dms serving');

  const shutdown = gracefulShutdown({ server: server as Server, dms, logger, timeoutMs: config.shutdownTimeoutMs });
  // The last lines ('dms stopped') are written before the process exits.
  let stopped: Promise<void> | undefined;
  const stop = (options?: { now?: boolean }) => {
    const closed = options?.now ? shutdown.now() : shutdown.begin();
    return (stopped ??= closed.then(() => flushLogger(logger)));
  };
  return { dms, url, stop };
}
