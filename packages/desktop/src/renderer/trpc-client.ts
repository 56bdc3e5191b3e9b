import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink, TRPCClientError, type TRPCLink } from '@trpc/client';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import { ipcLink } from 'trpc-electron/renderer';
import type { AppRouter } from '../main/router/index.js';

/**
 * The one difference between the app and its browser tests: in Electron the preload exposes
 * `electronTRPC` and calls go over IPC; in a test host they go over tRPC's HTTP adapter.
 */
function consoleLink(): TRPCLink<AppRouter> {
  if ('electronTRPC' in globalThis) return ipcLink<AppRouter>();
  const url = new URL('trpc', globalThis.location.href).href;
  return splitLink({ condition: (op) => op.type === 'subscription', true: httpSubscriptionLink({ url }), false: httpBatchLink({ url }) });
}

export const api = createTRPCClient<AppRouter>({ links: [consoleLink()] });

/** Messages for each field of a core validation error, and the error's own message otherwise. */
export function describeError(error: unknown): { message: string; fields: Record<string, string[]> } {
  if (!(error instanceof TRPCClientError)) return { message: String(error), fields: {} };
  const data = error.data as { details?: Record<string, Array<{ error: string }>>; messages?: string[] } | undefined;
  const fields: Record<string, string[]> = {};
  for (const line of data?.messages ?? []) {
    const field = Object.keys(data?.details ?? {}).find((name) => line.startsWith(`${name} `));
    if (field) (fields[field] ??= []).push(line);
  }
  return { message: error.message, fields };
}

/** What each procedure answers and takes, for screens' state and forms. */
export type Outputs = inferRouterOutputs<AppRouter>;
export type Inputs = inferRouterInputs<AppRouter>;
