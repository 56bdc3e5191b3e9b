import { z } from 'zod';
import { strictInput } from '../validation/strict-input.js';
import { optionalText } from './common.js';
import { scopeSchema } from '../scopes/scope.js';
import { grantableScope, roleNameSchema } from './api-key.js';

/** Custom roles are few: each is a line of the console's role menus. */
export const maxCustomRoles = 100;

const roleFields = z.object({
  name: roleNameSchema,
  description: optionalText(255),
  scopes: z.array(grantableScope).min(1).max(100),
});
const roleInputRules = { readOnly: ['builtin'] };
export const roleCreateSchema = strictInput(roleFields, roleInputRules);
// A role is not renamed: users and keys name it.
export const roleUpdateSchema = strictInput(roleFields.omit({ name: true }).partial(), { readOnly: ['name', 'builtin'] });

/** A role as answers show it, built-in or custom (docs/api.md#roles). */
export const roleSchema = z
  .object({
    name: z.string(),
    builtin: z.boolean().describe('true for admin, operator, auditor and viewer, which cannot change'),
    description: z.string().nullable(),
    scopes: z.array(scopeSchema),
  })
  .meta({ id: 'role' });
export type RoleView = z.output<typeof roleSchema>;

export const roleCollectionSchema = z.object({ count: z.number().int(), roles: z.array(roleSchema) }).meta({ id: 'role_collection' });
