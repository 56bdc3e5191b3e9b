import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { systemPrincipal, type Scope } from '@dms/core';
import { createAesGcmSecretBox, type AccessLimits, type Core, type Dms, type PasswordHasher, type Storage } from '@dms/core/runtime';
import { openSqliteStorage } from '@dms/core/sqlite';
import { openPostgresStorage } from '@dms/core/postgres';
import { openTestDms, type TestAdapter } from '@dms/core/testing';
import { createMemoryRateLimiter } from '@dms/core/memory';
import type { Hono } from 'hono';
import { createApp } from '../app.js';
import { createLogger } from '../http/logger.js';
import type { AppEnv } from '../http/env.js';

export const adminUsername = 'admin';
export const adminPassword = 'admin-password-1';

export interface TestApp {
  app: Hono<AppEnv>;
  core: Core;
  /** The job workers, not started: a test that runs jobs starts them. */
  engine: Dms['engine'];
  /** Runs due schedules; not started, as the engine (stopped at close when a test started it). */
  scheduler: Dms['scheduler'];
  /** The alert sources; not started: a test that raises alerts from job outcomes starts it. */
  alertWatch: Dms['alertWatch'];
  /** Sends queued notifications; not started: a test drives its rounds (`runOnce`). */
  notifications: Dms['notifications'];
  /** The database as stored (a second connection): for assertions on what is at rest. */
  storage: Storage;
  /** Its data dir (SQLite: dms.sqlite in it). */
  dataDir: string;
  /** The PostgreSQL database of the app; undefined on SQLite. */
  databaseUrl: string | undefined;
  /** `Basic …` header of the admin user. */
  basic: string;
  /** Creates an API key with these scopes and returns its `Bearer …` header. */
  bearer(...scopes: Array<Scope | `${string}/${string}`>): Promise<string>;
  /** app.request with a JSON body and an Authorization header. */
  call(method: string, path: string, options?: { auth?: string; body?: unknown; headers?: Record<string, string> }): Promise<Response>;
  close(): Promise<void>;
}

/** The storage adapters every route suite runs on (vitest projects `sqlite` and `postgres`). */
export type { TestAdapter };

/** The adapter this run of the suite is on: DMS_TEST_ADAPTER, set by the `postgres` vitest project. */
export const testAdapter: TestAdapter = process.env['DMS_TEST_ADAPTER'] === 'postgres' ? 'postgres' : 'sqlite';

/**
 * For tests of something only one adapter has (SQLite files at rest, its count cache): skips
 * them on the other, saying why once.
 */
export function onlyOn(adapter: TestAdapter, reason: string): boolean {
  const skipped = testAdapter !== adapter;
  if (skipped) console.log(`[skip on ${testAdapter}] ${reason}`);
  return skipped;
}

/**
 * A real app over real storage, opened by openDms as every CLI command opens it: a SQLite data
 * dir, or, in the `postgres` project, a PostgreSQL database of its own dropped at close.
 */
export interface TestAppOptions {
  /** A data dir of the test's; a new temporary one, removed at close, by default. */
  dataDir?: string;
  localRoots?: string[];
  /** Generous by default so that suites making many requests are not throttled. */
  limits?: AccessLimits;
  clock?: () => Date;
  /** Replaces the argon2 hasher (to count password checks). */
  hasher?: PasswordHasher;
  trustedProxies?: string[];
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const limits = options.limits ?? {
    perCredential: createMemoryRateLimiter({ limit: 1_000_000, windowSeconds: 60 }),
    perAddress: createMemoryRateLimiter({ limit: 1_000_000, windowSeconds: 60 }),
    authFailures: createMemoryRateLimiter({ limit: 1_000_000, windowSeconds: 60 }),
  };
  // No trap sender: POST /snmp/traps/{id}/test answers 503, as with the notifier down.
  const opened = await openTestDms({
    adapter: testAdapter,
    ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
    ...(options.localRoots ? { localRoots: options.localRoots } : {}),
    core: { limits, ...(options.clock ? { clock: options.clock } : {}), ...(options.hasher ? { hasher: options.hasher } : {}) },
  });
  const { dms, dataDir, databaseUrl } = opened;
  const { core, engine, scheduler, alertWatch, notifications } = dms;
  const key = Buffer.from(readFileSync(join(dataDir, 'secret.key'), 'utf8').trim(), 'hex');
  const secrets = createAesGcmSecretBox(key);
  const storage = databaseUrl ? openPostgresStorage({ url: databaseUrl, secrets }) : openSqliteStorage({ file: join(dataDir, 'dms.sqlite'), secrets });
  await core.users.add({ username: adminUsername, password: adminPassword, admin: true });
  const { app } = createApp({ core, logger: createLogger('silent'), ...(options.trustedProxies ? { trustedProxies: options.trustedProxies } : {}) });
  const basic = `Basic ${Buffer.from(`${adminUsername}:${adminPassword}`).toString('base64')}`;

  return {
    app,
    core,
    engine,
    scheduler,
    alertWatch,
    notifications,
    storage,
    dataDir,
    databaseUrl,
    basic,
    async bearer(...scopes) {
      const parsed = scopes.map((scope) => {
        if (typeof scope !== 'string') return scope;
        const [controller = '', action = ''] = scope.split('/');
        return { controller, action };
      });
      const { key } = await core.apiKeys.create(systemPrincipal, { name: 'test key', api_key_scopes: parsed });
      return `Bearer ${key}`;
    },
    async call(method, path, { auth, body, headers = {} } = {}) {
      const init: RequestInit = { method, headers: { ...headers } };
      if (auth) (init.headers as Record<string, string>)['authorization'] = auth;
      if (body !== undefined) {
        (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
        init.body = typeof body === 'string' ? body : JSON.stringify(body);
      }
      return app.request(path, init);
    },
    async close() {
      alertWatch.stop();
      await notifications.stop();
      await scheduler.stop();
      await engine.stop();
      await storage.close();
      await opened.close();
    },
  };
}
