import type { Core, SnmpAgentState } from '@dms/core/runtime';
import type { DesktopSession } from './session.js';
import type { RestServerController } from './rest-server-controller.js';
import type { OpenExternal } from './oidc-loopback.js';

/** What every procedure receives: the running service and the one desktop session. */
export interface DesktopContext {
  core: Core;
  snmpAgent: () => SnmpAgentState;
  session: DesktopSession;
  /** The embedded REST server; absent in hosts that have none (procedures then say so). */
  restServer?: RestServerController;
  /** The absolute local share roots the service was opened with, for the share form's hint (admins only). */
  localRoots?: readonly string[];
  /** Opens the system browser for single sign-on (Electron's shell.openExternal); absent: the console offers none. */
  openExternal?: OpenExternal;
}
