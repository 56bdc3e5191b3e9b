import type { SnmpConfig } from '../domain/snmp-config.js';
import type { JobStatus } from '../domain/job.js';

export interface AgentStatistics {
  shareCount: number;
  jobs: Record<JobStatus, number>;
}

export interface AgentOptions {
  port: number;
  host: string;
  config: SnmpConfig;
  /** snmpEngineID (hex) and snmpEngineBoots of this start (SnmpConfigStore.bootEngine); unset: a new id, boot 1. */
  engine?: { engineId: string; boots: number };
  /** sysDescr, sysName … are filled from the runtime. */
  sysName: string;
  sysDescr: string;
  statistics(): Promise<AgentStatistics>;
}

/** SNMP agent port: answers the system group and the dms objects of DMS-MIB. */
export interface SnmpAgent {
  start(options: AgentOptions): Promise<void>;
  /** Applies a new configuration at once, without a restart. */
  reconfigure(config: SnmpConfig): void;
  stop(): Promise<void>;
}
