import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { environmentDefaults as d, serverDefaults } from '@dms/core';
import { readConfig } from './config.js';

describe('readConfig defaults', () => {
  it('reads every unset variable as environmentDefaults declares it (the README table is tested against it)', () => {
    const dataDir = resolve(d.DMS_DATA_DIR);
    expect(readConfig({}, false)).toEqual({
      host: d.DMS_HOST,
      port: d.DMS_PORT,
      dataDir,
      databaseUrl: undefined,
      pgPoolMax: d.DMS_PG_POOL_MAX,
      pgStatementTimeoutMs: d.DMS_PG_STATEMENT_TIMEOUT_MS,
      adminPassword: undefined,
      secretKey: undefined,
      snmpAgentPort: undefined,
      logLevel: d.DMS_LOG_LEVEL,
      logFormat: serverDefaults.logFormat,
      localRoots: [resolve(dataDir, serverDefaults.localSharesDir)],
      driverTimeoutMs: d.DMS_DRIVER_TIMEOUT_MS,
      jobConcurrency: d.DMS_JOB_CONCURRENCY,
      rateLimitPerMinute: d.DMS_RATE_LIMIT_PER_MINUTE,
      rateLimitStore: d.DMS_RATE_LIMIT_STORE,
      snmpEnterpriseOid: d.DMS_SNMP_ENTERPRISE_OID,
      trustedProxies: [],
      http: {
        maxConnections: d.DMS_MAX_CONNECTIONS,
        maxConnectionsPerAddress: d.DMS_MAX_CONNECTIONS_PER_ADDRESS,
        headersTimeoutMs: d.DMS_HEADERS_TIMEOUT_MS,
        requestTimeoutMs: d.DMS_REQUEST_TIMEOUT_MS,
        keepAliveTimeoutMs: d.DMS_KEEP_ALIVE_TIMEOUT_MS,
        trustedProxies: [],
      },
      shutdownTimeoutMs: d.DMS_SHUTDOWN_TIMEOUT_MS,
      allowDamagedDatabase: false,
    });
  });

  it('takes an empty variable as unset', () => {
    expect(readConfig({ DMS_PORT: '', DMS_HOST: '', DMS_SNMP_AGENT_PORT: '' })).toMatchObject({ port: d.DMS_PORT, host: d.DMS_HOST, snmpAgentPort: undefined });
    expect(readConfig({ DMS_SNMP_AGENT_PORT: '1161' }).snmpAgentPort).toBe(1161);
  });
});
