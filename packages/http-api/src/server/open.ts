import { openDms, type Dms, type OpenDmsOptions } from '@dms/core/runtime';
import type { ServerConfig } from './config.js';

/** The operator contract's environment (the README's configuration table) as openDms options: the one mapping of both. */
export function dmsOptions(config: ServerConfig, role: OpenDmsOptions['role']): OpenDmsOptions {
  return {
    role,
    dataDir: config.dataDir,
    ...(config.databaseUrl === undefined
      ? {}
      : { databaseUrl: config.databaseUrl, pgPoolMax: config.pgPoolMax, pgStatementTimeoutMs: config.pgStatementTimeoutMs }),
    ...(config.secretKey === undefined ? {} : { secretKey: config.secretKey }),
    ...(config.adminPassword === undefined ? {} : { adminPassword: config.adminPassword }),
    localRoots: config.localRoots,
    ...(config.allowDamagedDatabase ? { allowDamagedDatabase: true } : {}),
    driverTimeoutMs: config.driverTimeoutMs,
    jobConcurrency: config.jobConcurrency,
    rateLimits: { store: config.rateLimitStore, requestsPerMinute: config.rateLimitPerMinute },
    snmp: {
      enterpriseOid: config.snmpEnterpriseOid,
      ...(config.snmpAgentPort === undefined ? {} : { agent: { host: config.host, port: config.snmpAgentPort } }),
    },
  };
}

/** A short command's view of the data dir (CLI): no lock, no workers, no recovery. */
export function openForCommand(config: ServerConfig, extra: Partial<OpenDmsOptions> = {}): Promise<Dms> {
  return openDms({ ...dmsOptions(config, 'command'), ...extra });
}
