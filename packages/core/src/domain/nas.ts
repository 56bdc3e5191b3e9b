import { z } from 'zod';
import { resourceName, hostPattern, idSchema, nasTypes, optionalText, text } from './common.js';
import { strictInput, type InputRules } from '../validation/strict-input.js';

export const nasWritableSchema = z.object({
  name: resourceName(255),
  host: text(255).regex(hostPattern, { message: 'must be a host name, IPv4 address or [IPv6] address' }),
  type: z.enum(nasTypes),
  comment: optionalText(1024),
  price: z
    .string()
    .regex(/^\d{1,15}(\.\d{1,4})?$/, { message: 'must be a decimal amount such as 12.50' })
    .nullable()
    .optional(),
});
const nasInputRules: InputRules = { readOnly: ['id'] };
export const nasCreateSchema = strictInput(nasWritableSchema, nasInputRules);
export const nasUpdateSchema = strictInput(nasWritableSchema.partial(), nasInputRules);

export const nasSchema = z.object({
  id: idSchema,
  name: z.string(),
  host: z.string(),
  type: z.enum(nasTypes),
  comment: z.string().nullable(),
  price: z.string().nullable(),
}).meta({ id: 'nas' });

export type NasCreate = z.output<typeof nasCreateSchema>;
export type NasUpdate = z.output<typeof nasUpdateSchema>;
export type Nas = z.output<typeof nasSchema>;
