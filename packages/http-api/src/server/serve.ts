import { serve as serveNode, type ServerType } from '@hono/node-server';
import { createApp, apiBase } from '../app.js';
import { createLogger } from '../http/logger.js';
import type { ServerConfig } from './config.js';
import { openRuntime, type Runtime } from './runtime.js';

export interface RunningServer {
  runtime: Runtime;
  url: string;
  stop(): Promise<void>;
}

/** `dms serve`: migrate, create the first admin, serve /api/v2 until SIGINT/SIGTERM. */
export async function startServer(config: ServerConfig): Promise<RunningServer> {
  const logger = createLogger(config.logLevel);
  const runtime = await openRuntime(config);
  const admin = await runtime.core.users.ensureAdmin(config.adminPassword);
  if (admin.generatedPassword) {
    process.stderr.write(`[dms] created user 'admin' with password: ${admin.generatedPassword}\n[dms] it is shown only this once.\n`);
  } else if (admin.created) {
    logger.info('created user admin with the password from DMS_ADMIN_PASSWORD');
  }
  const { app } = createApp({ core: runtime.core, logger });
  const server: ServerType = await new Promise((resolve, reject) => {
    const started = serveNode({ fetch: app.fetch, hostname: config.host, port: config.port }, () => resolve(started));
    started.once('error', reject);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}${apiBase}`;
  logger.info({ url, database: runtime.storage.dialect }, 'dms serving');

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      logger.info('dms stopping');
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await runtime.close();
    })());
  return { runtime, url, stop };
}
