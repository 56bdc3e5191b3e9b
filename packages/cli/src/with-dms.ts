import { listDefaults } from '@dms/core';
import type { Dms } from '@dms/core/runtime';
import { commandConfig } from './command-environment.js';
import { openForCommand } from '@dms/http-api';

/** Where a command prints its answer, a line at a time (stdout, or a test's array). */
export type Output = (line: string) => void;

/** The lists of `user list`, `apikey list` and `cors list`: the largest page a list serves. */
export const allOnOnePage = { per_page: [String(listDefaults.maxPageSize)] };

/** Every command but serve and migrate works on an existing database, beside a running server. */
export async function withDms<T>(run: (dms: Dms) => Promise<T>, options: { createDatabase?: boolean; initDatabase?: boolean } = {}): Promise<T> {
  const config = commandConfig();
  process.stderr.write(`dms: data dir ${config.dataDir}\n`);
  const dms = await openForCommand(config, options);
  try {
    return await run(dms);
  } finally {
    await dms.close();
  }
}
