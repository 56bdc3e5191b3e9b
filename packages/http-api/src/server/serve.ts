import { serve as serveNode, type ServerType } from '@hono/node-server';
import { openDms, type Dms } from '@dms/core';
import { createApp, apiBase } from '../app.js';
import { createLogger } from '../http/logger.js';
import type { ServerConfig } from './config.js';
import { dmsOptions } from './open.js';

export interface RunningServer {
  dms: Dms;
  url: string;
  stop(): Promise<void>;
}

/** A start-up failure with the message to show and nothing else (no stack). */
export class StartupError extends Error {
  override readonly name = 'StartupError';
}

function listenFailure(error: unknown, config: ServerConfig): StartupError {
  const code = (error as { code?: string }).code;
  const where = `${config.host}:${config.port}`;
  if (code === 'EADDRINUSE') return new StartupError(`cannot listen on ${where}: the port is in use; stop what uses it or set DMS_PORT`);
  if (code === 'EACCES') return new StartupError(`cannot listen on ${where}: permission denied (ports below 1024 need root); set DMS_PORT`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new StartupError(`cannot listen on ${where}: no such local address; set DMS_HOST`);
  return new StartupError(`cannot listen on ${where}: ${error instanceof Error ? error.message : String(error)}; check DMS_HOST and DMS_PORT`);
}

function listen(fetch: (request: Request) => Response | Promise<Response>, config: ServerConfig): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const server = serveNode({ fetch, hostname: config.host, port: config.port }, () => resolve(server));
    server.once('error', (error) => {
      server.close();
      reject(listenFailure(error, config));
    });
  });
}

/** `dms serve`: the whole service from openDms, served over HTTP until stopped. */
export async function startServer(config: ServerConfig): Promise<RunningServer> {
  const logger = createLogger(config.logLevel, undefined, config.logFormat);
  let trapFailures = () => {};
  const dms = await openDms({ ...dmsOptions(config, 'service'), log: logger, onTrapSendError: () => trapFailures() });
  if (dms.firstAdmin.generatedPassword) {
    process.stderr.write(`[dms] created user 'admin' with password: ${dms.firstAdmin.generatedPassword}\n[dms] it is shown only this once.\n`);
  } else if (dms.firstAdmin.created) {
    logger.info('created user admin with the password from DMS_ADMIN_PASSWORD');
  }
  const { app, metrics } = createApp({ core: dms.core, logger, trustedProxies: config.trustedProxies, snmpAgent: () => dms.snmpAgent() });
  trapFailures = () => metrics.trapSendFailures.inc();
  let server: ServerType;
  try {
    server = await listen(app.fetch, config);
  } catch (error) {
    await dms.close();
    throw error;
  }
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}${apiBase}`;
  logger.info({ url, data_dir: config.dataDir }, 'dms serving');

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      logger.info('dms stopping');
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await dms.close();
    })());
  return { dms, url, stop };
}
