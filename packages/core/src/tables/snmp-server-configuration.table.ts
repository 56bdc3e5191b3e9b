import type { Generated } from 'kysely';

/** The single row (id 1) of the SNMP agent's configuration; its store answers with SnmpConfig. */
export interface SnmpServerConfigurationTable {
  id: number;
  version: string;
  /** Sealed. */
  community: string;
  location: string;
  contact: string;
  updated_at: string;
  /** Null until the first start seeds the agent's settings (issue 24); 0/1 once set. */
  agent_enabled: number | null;
  agent_address: string | null;
  agent_port: number | null;
  /** The v3 users as one sealed JSON document (sealed: not JSON text as stored); null: none. */
  users: string | null;
  engine_id: string | null;
  engine_boots: Generated<number>;
}
