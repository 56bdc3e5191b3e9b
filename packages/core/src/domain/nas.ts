import { z } from 'zod';
import { resourceName, hostPattern, idSchema, nasTypes, optionalText, text } from './common.js';
import { strictInput, type InputRules } from '../validation/strict-input.js';
import type { ListSpec } from '../list-query/list-query.js';
import { listFields } from '../list-query/list-fields.js';
import { listQuerySchema } from '../list-query/list-query-schema.js';
import { collectionSchema } from '../list-query/collection-schema.js';
import { decimalAmountExample, decimalAmountPattern } from '../validation/decimal-amount.js';

export const nasWritableSchema = z.object({
  name: resourceName(255),
  host: text(255).regex(hostPattern, { message: 'must be a host name, IPv4 address or [IPv6] address' }),
  type: z.enum(nasTypes),
  comment: optionalText(1024),
  price: z
    .string()
    .regex(decimalAmountPattern, { message: `must be a decimal amount such as ${decimalAmountExample}` })
    .nullable()
    .optional(),
});
const nasInputRules: InputRules = { readOnly: ['id'] };
export const nasCreateSchema = strictInput(nasWritableSchema, nasInputRules);
export const nasUpdateSchema = strictInput(nasWritableSchema.partial(), nasInputRules);

export const nasSchema = z
  .object({
    id: idSchema,
    name: z.string(),
    host: z.string(),
    type: z.enum(nasTypes),
    comment: z.string().nullable(),
    price: z.string().nullable(),
  })
  .meta({ id: 'nas' });

export type NasCreate = z.output<typeof nasCreateSchema>;
export type NasUpdate = z.output<typeof nasUpdateSchema>;
export type Nas = z.output<typeof nasSchema>;

export const nasCollectionSchema = collectionSchema('nas', nasSchema).meta({ id: 'nas_collection' });

// Lists: the attributes a list sorts and filters on, and the query parameters they give.
const { integer, string, nullableString, nullableDecimal } = listFields;

// Price is a decimal held as text (`12.50`): a decimal field, so it filters and sorts as a number
// (`price=>100` does not match `9.00`; `sort_by=price` puts 9.00 before 100.50).
export const nasListSpec: ListSpec = {
  fields: { id: integer, name: string, host: string, type: string, comment: nullableString, price: nullableDecimal },
  filterable: ['id', 'name', 'host', 'type', 'comment', 'price'],
};
export const nasListQuerySchema = listQuerySchema(nasListSpec);
