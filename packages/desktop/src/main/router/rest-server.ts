import { DomainError, type Principal } from '@dms/core';
import type { RestServerSettings } from '../desktop-settings.js';
import type { RestServerController } from '../rest-server-controller.js';
import type { DesktopContext } from '../context.js';
import { router, userProcedure } from '../trpc.js';
import { typed } from './inputs.js';

/** The controller of this host; a host without one (a test host, say) answers every call with why. */
function controllerOf(ctx: DesktopContext): RestServerController {
  if (ctx.restServer) return ctx.restServer;
  throw new DomainError('unavailable', 'this console has no embedded REST server to configure (it runs only in the desktop app)');
}

/** The REST server opens the whole service to the network: only an admin user decides that. */
function requireAdminUser(principal: Principal): void {
  if (principal.kind === 'user' && principal.admin) return;
  throw new DomainError('forbidden', 'only an admin user may change the embedded REST server', { details: { admin: [{ error: 'forbidden' }] } });
}

export const restServerRouter = router({
  /** Running (with its URL), stopped, or failed (with the reason), and the stored settings. */
  status: userProcedure.query(({ ctx }) => controllerOf(ctx).status()),
  /** Saves and applies at once; the controller validates the settings and answers field errors. */
  update: userProcedure.input(typed<RestServerSettings>()).mutation(({ ctx, input }) => {
    requireAdminUser(ctx.principal);
    return controllerOf(ctx).update(input);
  }),
});
