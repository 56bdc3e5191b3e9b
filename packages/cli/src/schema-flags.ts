import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { z } from 'zod';
import { CliError } from './cli-error.js';

type Options = NonNullable<ParseArgsConfig['options']>;
/** What parseArgs answers for these options (named here: node's own type is not exported, and a declaration must name it). */
type ParsedFlags<O extends Options> = ReturnType<typeof parseArgs<{ args: string[]; options: O; allowPositionals: true; strict: true }>>;

/** `--type`, `--host`, …: one string flag per field of a core input schema, but those given otherwise (a positional NAME, a prompted password). */
export function fieldFlags(schema: z.ZodObject, except: readonly string[]): Options {
  return Object.fromEntries(
    Object.keys(schema.shape)
      .filter((field) => !except.includes(field))
      .map((field) => [field, { type: 'string' as const }]),
  );
}

/**
 * parseArgs, with a flag it does not know refused by naming the ones it takes (node's own message
 * names only the one given).
 */
export function parseFlags<O extends Options>(args: string[], options: O, usage: string): ParsedFlags<O> {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && code !== 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') throw error;
    const given = /'(-[^' ]*)/.exec((error as Error).message)?.[1] ?? 'that option';
    const known = Object.entries(options)
      .map(([name, option]) => (option.type === 'string' ? `--${name} VALUE` : `--${name}`))
      .join(', ');
    const problem = code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? `unknown option ${given}` : `option ${given} needs a value`;
    throw new CliError(`${problem}; the options are ${known}\n${usage}`);
  }
}

/** The body the core validates: the string flags of `fields` that were given, as the REST body would carry them. */
export function bodyOf(values: Record<string, string | boolean | Array<string | boolean> | undefined>, fields: Options): Record<string, string> {
  const body: Record<string, string> = {};
  for (const field of Object.keys(fields)) {
    const value = values[field];
    if (typeof value === 'string') body[field] = value;
  }
  return body;
}
