import { CliError } from './cli-error.js';

/**
 * A flag's value as an equality filter of the list contract: `=` first, so a value that begins
 * like an operator (`~`, `>`, `!=`) is still matched as written.
 */
export function equalTo(value: string | undefined): string[] | undefined {
  return value === undefined ? undefined : [`=${value}`];
}

/** A flag whose value must be one of a few words: refused with the words, rather than listing nothing. */
export function oneOf<T extends string>(flag: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined || (allowed as readonly string[]).includes(value)) return value as T | undefined;
  throw new CliError(`--${flag} '${value}' must be one of ${allowed.join(', ')}`);
}
