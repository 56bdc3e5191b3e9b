import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { systemPrincipal } from '@dms/core';
import { openDms, type AccessLimits } from '@dms/core/runtime';
import { createMemoryAccessLimits } from '@dms/core/memory';
import { createApp, createLogger } from '@dms/http-api';

export const adminPassword = 'admin-password-1';

export interface DmsServer {
  /** `http://127.0.0.1:PORT`, the base URL a client is given. */
  url: string;
  /** The directory `local` shares must lie in. */
  localRoot: string;
  /** A key made by the system (as `dms apikey create` makes one): no owner, so only its own budget applies. */
  systemKey(name: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * The whole service as `dms serve` runs it (openDms as a service, the Hono app, node-server)
 * on a temporary data dir and a free port of 127.0.0.1. Traps are sent nowhere.
 */
export async function startDms(options: { limits?: AccessLimits; adminPassword?: string } = {}): Promise<DmsServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'dms-sdk-'));
  const localRoot = join(dataDir, 'shares');
  mkdirSync(localRoot);
  const dms = await openDms({
    role: 'service',
    dataDir,
    adminPassword: options.adminPassword ?? adminPassword,
    localRoots: [localRoot],
    trapSender: { send: async () => {}, close() {} },
    jobPollMs: 20,
    core: { limits: options.limits ?? createMemoryAccessLimits({ requestsPerMinute: 1_000_000, failuresPerMinute: 1_000 }) },
  });
  const { app } = createApp({ core: dms.core, logger: createLogger('silent') });
  const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 });
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    localRoot,
    systemKey: async (name) => (await dms.core.apiKeys.create(systemPrincipal, { name, api_key_scopes: [{ controller: '*', action: '*' }] })).key,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // A long poll still open would hold close() for up to 30 s.
      (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      await closed;
      await dms.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
