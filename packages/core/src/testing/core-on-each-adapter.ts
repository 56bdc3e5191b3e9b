import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe } from 'vitest';
import { openDms } from '../runtime/open-dms.js';
import type { Core } from '../services/create-core.js';
import type { Principal } from '../scopes/principal.js';
import { bearerCredential, passwordCredential } from '../security/credential.js';
import { createTestDatabase, postgresUnreachable } from './postgres-test-database.js';

export type TestCoreAdapter = 'sqlite' | 'postgres';

/** The first admin of every test core, as the REST test app has it. */
export const testAdmin = { username: 'admin', password: 'admin-password-1' } as const;

export interface TestCoreOptions {
  clock?: () => Date;
  localRoots?: string[];
}

/** A core opened by openDms as every host opens it, without its job workers (queued jobs stay queued). */
export interface TestCore {
  core: Core;
  adapter: TestCoreAdapter;
  /** The principal a user name and password stand for now: what a host's Basic credential gives. */
  asUser(username: string, password: string): Promise<Principal>;
  /** The principal a Bearer value stands for now: an API key (its lineage, expiry and owner read at use time) or a JWT. */
  asBearer(token: string): Promise<Principal>;
  close(): Promise<void>;
}

export type OpenTestCore = (options?: TestCoreOptions) => Promise<TestCore>;

// Locally a missing PostgreSQL skips its half with the reason printed; on CI it fails (as require-tool.ts does).
const unreachable = await postgresUnreachable();
if (unreachable && process.env['CI'] === 'true') throw new Error(`CI needs ${unreachable} (install: apt-get install -y postgresql)`);
if (unreachable) console.warn(`[skip] the PostgreSQL half of the core rule suites: ${unreachable}`);

function opener(adapter: TestCoreAdapter): OpenTestCore {
  return async (options = {}) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dms-core-rules-'));
    const database = adapter === 'postgres' ? await createTestDatabase() : undefined;
    const dms = await openDms({
      role: 'command',
      createDatabase: true,
      dataDir,
      ...(database ? { databaseUrl: database.url } : {}),
      localRoots: options.localRoots ?? [tmpdir()],
      trapSender: null,
      core: options.clock ? { clock: options.clock } : {},
    });
    const { core } = dms;
    await core.users.add({ ...testAdmin, admin: true });
    return {
      core,
      adapter,
      asUser: (username, password) => core.auth.authenticate(passwordCredential(username, password)),
      asBearer: (token) => core.auth.authenticate(bearerCredential(token)),
      async close() {
        await dms.close();
        await database?.drop();
        rmSync(dataDir, { recursive: true, force: true });
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
