import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { createAesGcmSecretBox, createCore, systemPrincipal, type Core, type PasswordHasher, type Scope, type Storage } from '@dms/core';
import { openSqliteStorage } from '@dms/core/sqlite';
import { createShareDriverRegistry } from '@dms/core/drivers';
import { createApp } from '../app.js';
import { createLogger } from '../http/logger.js';
import { createMemoryRateLimiter } from '@dms/core/memory';
import type { AccessLimits } from '@dms/core';
import type { Hono } from 'hono';
import type { AppEnv } from '../http/env.js';

export const adminUsername = 'admin';
export const adminPassword = 'admin-password-1';

export interface TestApp {
  app: Hono<AppEnv>;
  core: Core;
  storage: Storage;
  /** `Basic …` header of the admin user. */
  basic: string;
  /** Creates an API key with these scopes and returns its `Bearer …` header. */
  bearer(...scopes: Array<Scope | `${string}/${string}`>): Promise<string>;
  /** app.request with a JSON body and an Authorization header. */
  call(method: string, path: string, options?: { auth?: string; body?: unknown; headers?: Record<string, string> }): Promise<Response>;
  close(): Promise<void>;
}

/** A real app over a real SQLite database (a file when `file` is given, else in memory). */
export interface TestAppOptions {
  file?: string;
  localRoots?: string[];
  /** Generous by default so that suites making many requests are not throttled. */
  limits?: AccessLimits;
  clock?: () => Date;
  /** Replaces the argon2 hasher (to count password checks). */
  hasher?: PasswordHasher;
  trustedProxies?: string[];
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const secrets = createAesGcmSecretBox(randomBytes(32));
  const storage = openSqliteStorage({ file: options.file ?? ':memory:', secrets });
  await storage.migrate();
  const limits = options.limits ?? {
    perCredential: createMemoryRateLimiter({ limit: 1_000_000, windowSeconds: 60 }),
    perAddress: createMemoryRateLimiter({ limit: 1_000_000, windowSeconds: 60 }),
    authFailures: createMemoryRateLimiter({ limit: 1_000_000, windowSeconds: 60 }),
  };
  const core = createCore({
    storage,
    secrets,
    drivers: createShareDriverRegistry({ localRoots: options.localRoots ?? [tmpdir()] }),
    engine: { pollMs: 20 },
    limits,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.hasher ? { hasher: options.hasher } : {}),
  });
  await core.users.add({ username: adminUsername, password: adminPassword, admin: true });
  const { app } = createApp({ core, logger: createLogger('silent'), ...(options.trustedProxies ? { trustedProxies: options.trustedProxies } : {}) });
  const basic = `Basic ${Buffer.from(`${adminUsername}:${adminPassword}`).toString('base64')}`;

  return {
    app,
    core,
    storage,
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
      await core.engine.stop();
      await storage.close();
    },
  };
}
