import type { z } from 'zod';

/**
 * What a create or update body does with fields beyond the writable ones (docs/decisions/023-strict-bodies.md):
 * read-only fields are accepted and ignored, so a GET body can be sent back by PUT unchanged;
 * any other field is 422 `unknown`, so a typo never passes silently.
 */
export interface InputRules {
  /** Fields the service supplies (ids, counters, timestamps): accepted with any value, and ignored. */
  readonly readOnly?: readonly string[];
  /**
   * Where a field is really set, as the rest of a sentence (`is set through PUT /pools/{id}
   * ...`). Sent in a body that does not take it, the field is refused (422 `unknown`) with
   * this sentence; a read-only field that has one is still ignored, and an unknown field
   * close to it is told where it is set.
   */
  readonly setElsewhere?: Readonly<Record<string, string>>;
  /** The body's component name in the OpenAPI document. */
  readonly id?: string;
}

// Keyed by the schema instance that parseInput receives: zod derives a new instance on
// every `.partial()`, `.extend()` or `.meta()`, so strictInput is always the last step.
const rulesOfSchema = new WeakMap<z.ZodType, InputRules>();

/**
 * The one place where a body schema becomes strict. Wrap every create and update schema
 * with it; parseInput then drops the read-only fields and explains the unknown ones.
 */
export function strictInput<Shape extends z.core.$ZodShape>(schema: z.ZodObject<Shape>, rules: InputRules = {}): z.ZodObject<Shape, z.core.$strict> {
  const readOnly = rules.readOnly ?? [];
  const description =
    readOnly.length === 0
      ? 'Unknown fields are refused (422).'
      : `Read-only fields (${readOnly.join(', ')}) are accepted and ignored; other unknown fields are refused (422).`;
  const strict = schema.strict().meta({ ...(rules.id === undefined ? {} : { id: rules.id }), description });
  rulesOfSchema.set(strict, rules);
  return strict;
}

export function inputRulesOf(schema: z.ZodType): InputRules {
  return rulesOfSchema.get(schema) ?? {};
}

/** The body without its read-only fields, as a new object (never mutating the caller's). */
export function withoutReadOnly(body: Record<string, unknown>, rules: InputRules): Record<string, unknown> {
  const readOnly = new Set(rules.readOnly ?? []);
  if (readOnly.size === 0) return body;
  // fromEntries defines own properties: a `__proto__` key stays a plain (unknown) field.
  return Object.fromEntries(Object.entries(body).filter(([key]) => !readOnly.has(key)));
}
