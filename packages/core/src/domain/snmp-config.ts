import { isIP } from 'node:net';
import { z } from 'zod';
import { communitySchema, snmpVersions } from './trap.js';
import { noControlChars, noControlCharsRule } from './common.js';
import { strictInput } from '../validation/strict-input.js';
import { authProtocolSchema, privProtocolSchema, securityLevelSchema, v3SecurityFields, type V3Security } from './snmp-v3-security.js';

const label = z.string().max(255).regex(noControlChars, noControlCharsRule);

/** Most v3 users of the agent: each costs a key localization per message that names it. */
export const maxAgentUsers = 20;

/** An address the agent binds: an IP literal (IPv4, IPv6 with or without brackets); 0.0.0.0 or :: for every interface. */
export const agentAddressSchema = z
  .string()
  .min(1)
  .max(47)
  .refine((value) => isIP(value.replace(/^\[(.*)\]$/, '$1')) !== 0, {
    message: 'must be an IPv4 or IPv6 address of this host, such as 127.0.0.1, 0.0.0.0 (every interface) or ::',
  });

export const agentPortSchema = z.number().int().min(1).max(65535);

/** A v3 user of the agent: the trap targets' field names (docs/decisions/052-snmp-v3.md). */
export const agentUserInputSchema = strictInput(v3SecurityFields);

const readOnlyFields = ['engine_id', 'messages'];

export const snmpConfigUpdateSchema = strictInput(
  z
    .object({
      version: z.enum(snmpVersions),
      community: communitySchema,
      location: label,
      contact: label,
      agent_enabled: z.boolean(),
      agent_address: agentAddressSchema,
      agent_port: agentPortSchema,
      users: z.array(agentUserInputSchema).max(maxAgentUsers).meta({
        description:
          'The whole list of v3 users (it replaces the stored one). A passphrase left out (or null) of a user whose security_name is already stored keeps its stored value.',
      }),
    })
    .partial(),
  { readOnly: readOnlyFields },
);

const agentUserSchema = z.object({
  security_name: z.string(),
  security_level: securityLevelSchema,
  auth_protocol: authProtocolSchema.nullable(),
  priv_protocol: privProtocolSchema.nullable(),
  auth_passphrase: z.string().nullable().optional().meta({ description: 'Present only with the scope server_configuration / get_password.' }),
  priv_passphrase: z.string().nullable().optional().meta({ description: 'Present only with the scope server_configuration / get_password.' }),
});

/** The configuration as stored and as the agent runs it. */
export interface SnmpConfig {
  version: (typeof snmpVersions)[number];
  community: string;
  location: string;
  contact: string;
  agent_enabled: boolean;
  agent_address: string;
  agent_port: number;
  users: V3Security[];
  /** Hex; null only before the first start generated it. */
  engine_id: string | null;
}

/** What a caller reads: the community and the passphrases only for an admin (canSeeAgentCommunity), like a password. */
export const snmpConfigSchema = z
  .object({
    version: z.enum(snmpVersions),
    community: z.string().optional().meta({
      description:
        'The read community of the agent: a credential, present only for an admin user, or a key of an admin owner holding `server_configuration / get_password`. Others may set it without reading it.',
    }),
    location: z.string(),
    contact: z.string(),
    agent_enabled: z.boolean().meta({ description: 'Whether the agent listens; a change starts or stops it at once.' }),
    agent_address: z.string().meta({ description: 'The IP address the agent binds (0.0.0.0 or :: for every interface).' }),
    agent_port: z.number().int().meta({ description: 'The UDP port the agent binds (161 is the standard one and needs privileges).' }),
    users: z.array(agentUserSchema).meta({ description: 'SNMPv3 users of the agent, read-only access.' }),
    engine_id: z.string().nullable().meta({ description: 'Read-only: the snmpEngineID in hex, generated once and kept; traps and informs are sent from it.' }),
    messages: z
      .array(z.string())
      .optional()
      .meta({ description: 'Warnings about an allowed but weak choice (auth_protocol SHA-1); absent when there are none.' }),
  })
  .meta({ id: 'server_configuration' });

export type SnmpConfigUpdate = z.output<typeof snmpConfigUpdateSchema>;
export type SnmpConfigView = z.output<typeof snmpConfigSchema>;

/** The agent's standard port; `DMS_SNMP_AGENT_PORT` seeds agent_port at first start. */
export const standardAgentPort = 161;

export const defaultSnmpConfig: SnmpConfig = {
  version: 'v2c',
  community: 'public',
  location: '',
  contact: '',
  agent_enabled: false,
  agent_address: '127.0.0.1',
  agent_port: standardAgentPort,
  users: [],
  engine_id: null,
};

/** What the first start writes (from `DMS_SNMP_AGENT_PORT` and `DMS_HOST`), once. */
export interface AgentSeed {
  agent_enabled: boolean;
  agent_address: string;
  agent_port: number;
}

/** Where and as which engine the agent runs: what a restart of its socket depends on. */
export function agentEndpointChanged(before: SnmpConfig, after: SnmpConfig): boolean {
  return before.agent_enabled !== after.agent_enabled || before.agent_address !== after.agent_address || before.agent_port !== after.agent_port;
}
