import type { z } from 'zod';

/** A command's flags: each named as on the command line (`ask-password`), string, boolean or repeated. */
export type FlagSpec = { type: 'string' | 'boolean'; multiple?: boolean; description?: string };
export type Options = Record<string, FlagSpec>;
/** The flags given, keyed by their command-line name. */
export type Flags = Record<string, string | boolean | string[] | undefined>;

/** `--type`, `--host`, …: one string flag per field of a core input schema, but those given otherwise (a positional NAME, a prompted password). */
export function fieldFlags(schema: z.ZodObject, except: readonly string[]): Options {
  return Object.fromEntries(
    Object.keys(schema.shape)
      .filter((field) => !except.includes(field))
      .map((field) => [field, { type: 'string' as const, description: `its ${field}, as the REST field ${field} (the core checks it)` }]),
  );
}

/** The body the core validates: the string flags of `fields` that were given, as the REST body would carry them. */
export function bodyOf(values: Flags, fields: Options): Record<string, string> {
  const body: Record<string, string> = {};
  for (const field of Object.keys(fields)) {
    const value = values[field];
    if (typeof value === 'string') body[field] = value;
  }
  return body;
}
