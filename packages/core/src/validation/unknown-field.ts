import type { z } from 'zod';
import { closestName } from './closest-name.js';
import { fieldLabel, fieldsAt } from './schema-at-path.js';
import type { InputRules } from './strict-input.js';

/** A client's key as a message quotes it: escaped, and cut short when it is long. */
function quoted(label: string): string {
  const escaped = JSON.stringify(label).slice(1, -1);
  return `'${escaped.length > 80 ? `${escaped.slice(0, 80)}…` : escaped}'`;
}

/** Where a field is really set, if the body's rules say. */
function whereSet(rules: InputRules, field: string): string | undefined {
  return rules.setElsewhere !== undefined && Object.hasOwn(rules.setElsewhere, field) ? rules.setElsewhere[field] : undefined;
}

/**
 * Why a field was refused, and what would work: where a field of the resource is really
 * set, else the known field it most likely meant, else every field the body takes.
 * Read-only and set-elsewhere fields are named only at the top of the body, where they are.
 */
export function unknownFieldMessage(key: string, parent: readonly PropertyKey[], root: z.ZodType, rules: InputRules): string {
  const topRules: InputRules = parent.length === 0 ? rules : {};
  const where = whereSet(topRules, key);
  if (where !== undefined) return `${key} ${where}`;
  const writable = fieldsAt(root, parent);
  const alsoKnown = [...(topRules.readOnly ?? []), ...Object.keys(topRules.setElsewhere ?? {})];
  const meant = closestName(key, [...new Set([...writable, ...alsoKnown])]);
  const field = quoted(fieldLabel([...parent, key]));
  if (meant !== undefined) {
    const meantIsSet = whereSet(topRules, meant);
    return `unknown field ${field}; did you mean '${fieldLabel([...parent, meant])}'?${meantIsSet === undefined ? '' : ` (${meant} ${meantIsSet})`}`;
  }
  return writable.length === 0 ? `unknown field ${field}` : `unknown field ${field}; known fields: ${writable.join(', ')}`;
}
