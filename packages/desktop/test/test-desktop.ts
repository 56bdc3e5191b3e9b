import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDms, type Dms } from '@dms/core/runtime';
import { createAppCaller, type AppCaller } from '../src/main/router/index.js';
import { DesktopSession } from '../src/main/session.js';
import type { DesktopContext } from '../src/main/context.js';
import { createLogger } from '@dms/http-api';
import { EmbeddedRestServer } from '../src/main/rest-server.js';

export const adminPassword = 'correct horse battery staple';

export interface TestDesktop {
  dms: Dms;
  /** A local share root holding `projects/a.txt` and `projects/sub/b.txt`. */
  root: string;
  /** A caller with its own session, as one window of the app would have. */
  caller(): AppCaller;
  /** With `restServer: true`: the embedded REST server (off until enabled) that every caller's context holds. */
  restServer?: EmbeddedRestServer;
  /** Its desktop settings file, in the temp data dir. */
  settingsFile: string;
  close(): Promise<void>;
}

export interface TestDesktopOptions {
  /** Give the callers an embedded REST server with a temp settings file (the app's setup). */
  restServer?: boolean;
}

/** The service as the app opens it (role `service`, SQLite in a temp data dir), without SNMP traffic. */
export async function openTestDesktop(options: TestDesktopOptions = {}): Promise<TestDesktop> {
  const dataDir = mkdtempSync(join(tmpdir(), 'dms-desktop-'));
  const root = join(dataDir, 'shares');
  mkdirSync(join(root, 'projects', 'sub'), { recursive: true });
  writeFileSync(join(root, 'projects', 'a.txt'), 'abc');
  writeFileSync(join(root, 'projects', 'sub', 'b.txt'), 'defgh');
  const dms = await openDms({
    role: 'service',
    dataDir,
    adminPassword,
    localRoots: [root],
    jobPollMs: 20,
    trapSender: { send: async () => {}, close() {} },
  });
  const settingsFile = join(dataDir, 'desktop-settings.json');
  const restServer = options.restServer
    ? new EmbeddedRestServer({ core: dms.core, snmpAgent: () => dms.snmpAgent(), settingsFile, logger: createLogger('silent') })
    : undefined;
  await restServer?.start();
  return {
    dms,
    root,
    restServer,
    settingsFile,
    caller: () => {
      const context: DesktopContext = {
        core: dms.core,
        snmpAgent: () => dms.snmpAgent(),
        session: new DesktopSession(),
        ...(restServer ? { restServer } : {}),
        localRoots: [root],
      };
      return createAppCaller(context);
    },
    close: async () => {
      await restServer?.stop();
      await dms.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
