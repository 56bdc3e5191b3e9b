import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { appRouter } from '../main/router/index.js';
import type { DesktopContext } from '../main/context.js';

export const trpcEndpoint = '/trpc';

/**
 * The router over tRPC's HTTP adapter, for tests of the renderer in a browser: the same
 * procedures as the app, only the link differs (HTTP here, IPC in Electron).
 */
export function handleTrpcRequest(request: Request, context: DesktopContext): Promise<Response> {
  return fetchRequestHandler({ endpoint: trpcEndpoint, req: request, router: appRouter, createContext: () => context });
}
