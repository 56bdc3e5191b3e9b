import { calledFrom, systemPrincipal } from '@dms/core';

/** Every CLI command acts as the system, so the audit log records its changes `via: 'cli'`. */
export const cliPrincipal = calledFrom(systemPrincipal, { via: 'cli' });
