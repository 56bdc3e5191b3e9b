import type { Core, SnmpAgentState } from '@dms/core';
import type { DesktopSession } from './session.js';

/** What every procedure receives: the running service and the one desktop session. */
export interface DesktopContext {
  core: Core;
  snmpAgent: () => SnmpAgentState;
  session: DesktopSession;
}
