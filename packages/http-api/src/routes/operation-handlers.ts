import type { Core } from '@dms/core/runtime';
import type { OperationHandlers } from './route-table.js';
import { jobHandlers, shareJobHandlers } from './job-routes.js';
import { shareHandlers } from './share-routes.js';
import { resourceHandlers } from './resource-routes.js';
import { adminHandlers } from './admin-routes.js';
import { watchHandlers } from './watch-routes.js';

/** A handler for every operation id: the type fails to check when one is missing. */
export function operationHandlers(core: Core): OperationHandlers {
  return {
    ...shareJobHandlers(core),
    ...jobHandlers(core),
    ...watchHandlers(core),
    ...shareHandlers(core),
    ...resourceHandlers(core),
    ...adminHandlers(core),
  };
}
