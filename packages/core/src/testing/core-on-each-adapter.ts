import { describe } from 'vitest';
import type { Core } from '../services/create-core.js';
import { join } from 'node:path';
import type { Dms } from '../runtime/open-dms.js';
import type { Storage } from '../ports/storage.js';
import type { Principal } from '../scopes/principal.js';
import type { PasswordHasher } from '../ports/password-hasher.js';
import type { AccessLimits } from '../ports/rate-limiter.js';
import { bearerCredential, passwordCredential } from '../security/credential.js';
import { postgresOrSkip } from './postgres-test-database.js';
import { openTestDms, type TestAdapter } from './test-dms.js';

/** The first admin of every test core, as the REST test app has it. */
export const testAdmin = { username: 'admin', password: 'admin-password-1' } as const;

export interface TestCoreOptions {
  clock?: () => Date;
  /** Replaces argon2 (a suite making many password checks). */
  hasher?: PasswordHasher;
  /** Budgets and the lockout (openDms's defaults unless given). */
  limits?: AccessLimits;
}

/** A core opened by openDms as every host opens it, without its job workers (queued jobs stay queued). */
export interface TestCore {
  core: Core;
  adapter: TestAdapter;
  /** The service under the core: its scheduler, engine and alert sources, not started. */
  dms: Dms;
  /** A second connection to the same database, for writing what the API refuses (closed with the core). */
  sameStorage(): Promise<Storage>;
  /** The principal a user name and password stand for now: what a host's Basic credential gives. */
  asUser(username: string, password: string): Promise<Principal>;
  /** The principal a Bearer value stands for now: an API key (its lineage, expiry and owner read at use time) or a JWT. */
  asBearer(token: string): Promise<Principal>;
  /** The retention purge, as housekeeping runs it each minute, at the core's clock. */
  purgeExpired(): Promise<void>;
  close(): Promise<void>;
}

export type OpenTestCore = (options?: TestCoreOptions) => Promise<TestCore>;

// Locally a missing PostgreSQL skips its half with the reason printed; on CI it fails (as require-tool.ts does).
// Locally a missing server skips with the reason printed; on CI it fails.
const unreachable = await postgresOrSkip('the PostgreSQL half of the core rule suites');

function opener(adapter: TestAdapter): OpenTestCore {
  return async (options = {}) => {
    const { clock, hasher, limits } = options;
    const opened = await openTestDms({ adapter, core: { ...(clock ? { clock } : {}), ...(hasher ? { hasher } : {}), ...(limits ? { limits } : {}) } });
    const { core } = opened.dms;
    const extra: Storage[] = [];
    await core.users.add({ ...testAdmin, admin: true });
    return {
      core,
      adapter,
      dms: opened.dms,
      async sameStorage() {
        const storage = opened.databaseUrl
          ? (await import('../adapters/postgres/index.js')).openPostgresStorage({ url: opened.databaseUrl })
          : (await import('../adapters/sqlite/index.js')).openSqliteStorage({ file: join(opened.dataDir, 'dms.sqlite') });
        extra.push(storage);
        return storage;
      },
      asUser: async (username, password) => core.auth.authenticate(passwordCredential(username, password)),
      asBearer: async (token) => core.auth.authenticate(bearerCredential(token)),
      purgeExpired: () => opened.dms.engine.purgeExpired(),
      close: async () => {
        for (const storage of extra.splice(0)) await storage.close();
        await opened.close();
      },
    };
  };
}

/**
 * Runs a suite of core rules once per storage adapter: SQLite in a data dir, then PostgreSQL in
 * a database of each test core's own (dropped at close), so both adapters keep each rule.
 */
export function describeOnEachAdapter(title: string, suite: (open: OpenTestCore) => void): void {
  for (const adapter of ['sqlite', 'postgres'] as const) {
    describe.skipIf(adapter === 'postgres' && unreachable !== undefined)(`${title} (${adapter})`, () => suite(opener(adapter)));
  }
}
