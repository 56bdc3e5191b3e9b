import { z } from 'zod';
import { communitySchema, snmpVersions } from './trap.js';
import { noControlChars, noControlCharsRule } from './common.js';
import { strictInput } from '../validation/strict-input.js';

const label = z.string().max(255).regex(noControlChars, noControlCharsRule);

export const snmpConfigUpdateSchema = strictInput(
  z.object({ version: z.enum(snmpVersions), community: communitySchema, location: label, contact: label }).partial(),
);

const storedSnmpConfigSchema = z.object({
  version: z.enum(snmpVersions),
  community: z.string(),
  location: z.string(),
  contact: z.string(),
});

/** What a caller reads: the community only for an admin (canSeeAgentCommunity), like a password. */
export const snmpConfigSchema = storedSnmpConfigSchema
  .extend({
    community: z.string().optional().meta({
      description:
        'The read community of the agent: a credential, present only for an admin user, or a key of an admin owner holding `server_configuration / get_password`. Others may set it without reading it.',
    }),
  })
  .meta({ id: 'server_configuration' });

export type SnmpConfigUpdate = z.output<typeof snmpConfigUpdateSchema>;
/** The configuration as stored and as the agent runs it. */
export type SnmpConfig = z.output<typeof storedSnmpConfigSchema>;
export type SnmpConfigView = z.output<typeof snmpConfigSchema>;

export const defaultSnmpConfig: SnmpConfig = { version: 'v2c', community: 'public', location: '', contact: '' };
