import { readFileSync, statSync } from 'node:fs';
import { environmentDefaults } from '@dms/core';
import { CliError } from './cli-error.js';

/** The names a settings file may set: the README's configuration table, declared once in the core. */
export const knownSettings: readonly string[] = Object.keys(environmentDefaults);

/** A settings file is a few dozen lines; one far larger is a mistake (a database, a log), refused before it is read. */
export const maxSettingsFileBytes = 64 * 1024;

const settingLine = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/;

/**
 * `KEY=value` lines (docs/decisions/138-settings-files.md): blank lines and `#` comments aside,
 * each line sets one known `DMS_*` name; a value in matching quotes loses them. Anything else is
 * refused naming the file and the line, so a typo never passes as an unset setting.
 */
export function parseSettings(text: string, file: string): Record<string, string> {
  const settings: Record<string, string> = {};
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const where = `${file}:${index + 1}`;
    const match = settingLine.exec(line);
    if (!match) throw new CliError(`${where}: not a KEY=value line`);
    const [, key, rawValue] = match as unknown as [string, string, string];
    if (!knownSettings.includes(key)) throw new CliError(`${where}: ${key} is not a dms setting; the settings are ${knownSettings.join(', ')}`);
    const value = rawValue.trim();
    settings[key] = /^(['"]).*\1$/.test(value) && value.length >= 2 ? value.slice(1, -1) : value;
  });
  return settings;
}

/** Reads and parses a settings file; `undefined` when it is absent and `optional`. */
export function readSettingsFile(file: string, optional = false): Record<string, string> | undefined {
  let size: number;
  try {
    size = statSync(file).size;
  } catch (error) {
    if (optional && (error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CliError(`cannot read settings file ${file}: ${(error as Error).message}`);
  }
  if (size > maxSettingsFileBytes) throw new CliError(`settings file ${file} is ${size} bytes; a settings file holds at most ${maxSettingsFileBytes}`);
  try {
    return parseSettings(readFileSync(file, 'utf8'), file);
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`cannot read settings file ${file}: ${(error as Error).message}`);
  }
}
