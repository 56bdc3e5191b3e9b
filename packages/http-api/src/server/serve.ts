import { serve as serveNode, type ServerType } from '@hono/node-server';
import { makeEvent } from '@dms/core';
import { createApp, apiBase } from '../app.js';
import { createLogger } from '../http/logger.js';
import type { ServerConfig } from './config.js';
import { openRuntime, type Runtime } from './runtime.js';
import { startSnmp } from './snmp.js';
import { NetSnmpTrapSender } from '@dms/core/snmp';

export interface RunningServer {
  runtime: Runtime;
  url: string;
  stop(): Promise<void>;
}

/** `dms serve`: migrate, create the first admin, serve /api/v2 until SIGINT/SIGTERM. */
export async function startServer(config: ServerConfig): Promise<RunningServer> {
  const logger = createLogger(config.logLevel);
  const trapSender = new NetSnmpTrapSender({ enterpriseOid: config.snmpEnterpriseOid });
  let trapFailures = () => {};
  const onTrapSendError = (error: unknown) => {
    trapFailures();
    logger.warn({ err: error }, 'SNMP test trap not sent');
  };
  const runtime = await openRuntime(config, { trapSender, onTrapSendError, warn: (message) => logger.warn(message) });
  const admin = await runtime.core.users.ensureAdmin(config.adminPassword);
  if (admin.generatedPassword) {
    process.stderr.write(`[dms] created user 'admin' with password: ${admin.generatedPassword}\n[dms] it is shown only this once.\n`);
  } else if (admin.created) {
    logger.info('created user admin with the password from DMS_ADMIN_PASSWORD');
  }
  const { core } = runtime;
  const snmp = await startSnmp({ config, storage: runtime.storage, events: core.deps.events, sender: trapSender, logger, onSendError: () => trapFailures() });
  core.engine.setErrorHandler((error) => logger.error({ err: error }, 'job engine error'));
  // One process owns an SQLite file, so every job left working was interrupted by a crash.
  await core.engine.start({ recoverEveryWorking: runtime.storage.dialect === 'sqlite' });
  const { app, metrics } = createApp({ core, logger, rateLimitPerMinute: config.rateLimitPerMinute, trustedProxies: config.trustedProxies });
  trapFailures = () => metrics.trapSendFailures.inc();
  const server: ServerType = await new Promise((resolve, reject) => {
    const started = serveNode({ fetch: app.fetch, hostname: config.host, port: config.port }, () => resolve(started));
    started.once('error', reject);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}${apiBase}`;
  logger.info({ url, database: runtime.storage.dialect }, 'dms serving');
  core.deps.events.publish(makeEvent('service_started', `dms serving ${url}`, core.deps.clock(), { type: 'service' }));

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      logger.info('dms stopping');
      core.deps.events.publish(makeEvent('service_stopping', 'dms stopping', core.deps.clock(), { type: 'service' }));
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await core.engine.stop();
      await snmp.stop();
      await runtime.close();
    })());
  return { runtime, url, stop };
}
