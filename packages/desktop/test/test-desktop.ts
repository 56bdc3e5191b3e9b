import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDms, type Dms } from '@dms/core';
import { createAppCaller, type AppCaller } from '../src/main/router/index.js';
import { DesktopSession } from '../src/main/session.js';
import type { DesktopContext } from '../src/main/context.js';

export const adminPassword = 'correct horse battery staple';

export interface TestDesktop {
  dms: Dms;
  /** A local share root holding `projects/a.txt` and `projects/sub/b.txt`. */
  root: string;
  /** A caller with its own session, as one window of the app would have. */
  caller(): AppCaller;
  close(): Promise<void>;
}

/** The service as the app opens it (role `service`, SQLite in a temp data dir), without SNMP traffic. */
export async function openTestDesktop(): Promise<TestDesktop> {
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
  return {
    dms,
    root,
    caller: () => {
      const context: DesktopContext = { core: dms.core, snmpAgent: () => dms.snmpAgent(), session: new DesktopSession() };
      return createAppCaller(context);
    },
    close: async () => {
      await dms.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
