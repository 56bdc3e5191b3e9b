import type { Principal } from '@dms/core';
import type { Core } from '@dms/core/runtime';
import { userProcedure } from '../trpc.js';

/** A core service holding one configuration object: http-api's singletonHandlers serve the same two calls. */
export interface SingletonService<View> {
  show(principal: Principal): Promise<View>;
  update(principal: Principal, body: unknown): Promise<View>;
}

/** show and update of one configuration object, as the signed-in user; `update` only types the body. */
export function singletonProcedures<View, UpdateBody>(service: (core: Core) => SingletonService<View>, update: (body: unknown) => UpdateBody) {
  return {
    show: userProcedure.query(({ ctx }) => service(ctx.core).show(ctx.principal)),
    update: userProcedure.input(update).mutation(({ ctx, input }) => service(ctx.core).update(ctx.principal, input)),
  };
}
