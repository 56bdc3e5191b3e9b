import { z } from 'zod';
import { communitySchema, snmpVersions } from './trap.js';
import { noControlChars, noControlCharsRule } from './common.js';
import { strictInput } from '../errors/strict-input.js';

const label = z.string().max(255).regex(noControlChars, noControlCharsRule);

export const snmpConfigUpdateSchema = strictInput(
  z.object({ version: z.enum(snmpVersions), community: communitySchema, location: label, contact: label }).partial(),
);

export const snmpConfigSchema = z.object({
  version: z.enum(snmpVersions),
  community: z.string(),
  location: z.string(),
  contact: z.string(),
}).meta({ id: 'server_configuration' });

export type SnmpConfigUpdate = z.output<typeof snmpConfigUpdateSchema>;
export type SnmpConfig = z.output<typeof snmpConfigSchema>;

export const defaultSnmpConfig: SnmpConfig = { version: 'v2c', community: 'public', location: '', contact: '' };
