import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDms, type Dms, type OpenDmsOptions } from '../runtime/open-dms.js';
import { createTestDatabase } from './postgres-test-database.js';
import { passwordCredential } from '../security/credential.js';
import type { Principal } from '../scopes/principal.js';

/** The storage adapters the service-level suites run on. */
export type TestAdapter = 'sqlite' | 'postgres';

export interface TestDmsOptions {
  adapter: TestAdapter;
  /** A data dir of the test's; a new temporary one, removed at close, by default. */
  dataDir?: string;
  /** Where `local` shares may be (the system's temporary dir by default). */
  localRoots?: string[];
  /** Passed to the core as they are (clock, limits, hasher). */
  core?: OpenDmsOptions['core'];
}

export interface TestDms {
  dms: Dms;
  dataDir: string;
  /** The PostgreSQL database of this service; undefined on SQLite (dms.sqlite in the data dir). */
  databaseUrl: string | undefined;
  /** Closes the service, drops its database and removes its temporary data dir. */
  close(): Promise<void>;
}

/**
 * A service opened by openDms as a CLI command opens it: no job workers (queued jobs stay queued
 * until a test starts the engine), no trap sender (a test trap is `unavailable`, as with the
 * notifier down), over SQLite in a data dir or a PostgreSQL database of its own.
 */
export async function openTestDms(options: TestDmsOptions): Promise<TestDms> {
  const temporary = options.dataDir === undefined ? mkdtempSync(join(tmpdir(), 'dms-test-')) : undefined;
  const dataDir = options.dataDir ?? temporary!;
  const database = options.adapter === 'postgres' ? await createTestDatabase() : undefined;
  const dms = await openDms({
    role: 'command',
    createDatabase: true,
    dataDir,
    ...(database ? { databaseUrl: database.url } : {}),
    localRoots: options.localRoots ?? [tmpdir()],
    trapSender: null,
    jobPollMs: 20,
    schedulerPollMs: 50,
    ...(options.core ? { core: options.core } : {}),
  });
  return {
    dms,
    dataDir,
    databaseUrl: database?.url,
    async close() {
      await dms.close();
      await database?.drop();
      if (temporary) rmSync(temporary, { recursive: true, force: true });
    },
  };
}

/** An admin signed in to `t` with its job engine started: the set-up of a test that runs real jobs. */
export async function adminWithEngine(t: TestDms): Promise<Principal> {
  await t.dms.core.users.add({ username: 'admin', password: 'admin-password-1', admin: true });
  const principal = await t.dms.core.auth.authenticate(passwordCredential('admin', 'admin-password-1'));
  await t.dms.engine.start();
  return principal;
}
