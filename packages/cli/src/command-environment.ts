import { join, resolve } from 'node:path';
import { environmentDefaults } from '@dms/core';
import { readConfig, type ServerConfig } from '@dms/http-api';
import { CliError } from './cli-error.js';
import { readSettingsFile } from './settings-file.js';

/** The file in a data dir that every command reads at start (docs/decisions/138-settings-files.md). */
export const dataDirSettingsFile = 'dms.env';

/**
 * The environment a command reads its configuration from: the process's, over `--config FILE`,
 * over the data dir's `dms.env`. The data dir is `--data-dir`, else DMS_DATA_DIR of the
 * environment, else that of `--config`; `dms.env` cannot move it (it lies in it).
 */
export function commandEnvironment(flags: { config?: string; dataDir?: string }, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const named = flags.config === undefined ? {} : readSettingsFile(resolve(flags.config))!;
  const dataDir = resolve(flags.dataDir || env['DMS_DATA_DIR'] || named['DMS_DATA_DIR'] || environmentDefaults.DMS_DATA_DIR);
  const file = join(dataDir, dataDirSettingsFile);
  const inDataDir = readSettingsFile(file, true) ?? {};
  if (inDataDir['DMS_DATA_DIR'] !== undefined) throw new CliError(`${file}: DMS_DATA_DIR cannot be set in the data dir's own ${dataDirSettingsFile}`);
  return { ...inDataDir, ...named, ...env, DMS_DATA_DIR: dataDir };
}

let current: NodeJS.ProcessEnv | undefined;

/** Set by the command tree before a command runs (commands.ts, its preAction hook). */
export function useCommandEnvironment(env: NodeJS.ProcessEnv | undefined): void {
  current = env;
}

/** The configuration of the command running: readConfig over its merged environment. */
export function commandConfig(): ServerConfig {
  return readConfig(current ?? process.env);
}
