import { hostname } from 'node:os';
import { startTrapDispatcher, type EventBus, type Storage, type TrapSender } from '@dms/core';
import { NetSnmpAgent } from '@dms/core/snmp';
import type { Logger } from 'pino';
import type { ServerConfig } from './config.js';

export interface SnmpServices {
  stop(): Promise<void>;
}

/**
 * Traps to every active target whose band holds the event, and, with DMS_SNMP_AGENT_PORT,
 * the agent. Neither can fail the server: a send error or an agent that cannot bind is a log line.
 */
export async function startSnmp(options: {
  config: ServerConfig;
  storage: Storage;
  events: EventBus;
  sender: TrapSender;
  logger: Logger;
  onSendError: (error: unknown) => void;
}): Promise<SnmpServices> {
  const { config, storage, events, sender, logger } = options;
  const stopDispatcher = startTrapDispatcher({
    bus: events,
    listTargets: () => storage.traps.listActive(),
    sender,
    onError: (error, target) => {
      options.onSendError(error);
      logger.warn({ err: error, trap: target?.id, manager: target?.manager }, 'SNMP trap not sent');
    },
  });

  let agent: NetSnmpAgent | undefined;
  let unsubscribe = () => {};
  if (config.snmpAgentPort !== undefined) {
    const candidate = new NetSnmpAgent({ enterpriseOid: config.snmpEnterpriseOid });
    try {
      await candidate.start({
        host: config.host,
        port: config.snmpAgentPort,
        config: await storage.snmpConfig.get(),
        sysName: hostname(),
        sysDescr: 'dms data management service for NAS storage',
        statistics: async () => ({ shareCount: await storage.shares.count(), jobs: await storage.jobs.countByStatus() }),
      });
      agent = candidate;
      logger.info({ port: config.snmpAgentPort }, 'SNMP agent listening');
      const bus = events.subscribe((event) => {
        if (event.name !== 'configuration_changed' || event.resource?.type !== 'snmp_server_configuration') return;
        storage.snmpConfig.get().then(
          (next) => agent?.reconfigure(next),
          (error: unknown) => logger.error({ err: error }, 'SNMP agent not reconfigured'),
        );
      });
      unsubscribe = () => void bus();
    } catch (error) {
      logger.error({ err: error, port: config.snmpAgentPort }, 'SNMP agent not started');
    }
  }

  return {
    async stop() {
      unsubscribe();
      await stopDispatcher();
      await agent?.stop();
      sender.close();
    },
  };
}
