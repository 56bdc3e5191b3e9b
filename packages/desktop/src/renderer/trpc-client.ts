import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink, TRPCClientError, type TRPCLink } from '@trpc/client';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import { observable } from '@trpc/server/observable';
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

const sessionEndedListeners = new Set<(message: string) => void>();

/** Calls `listener` with the core's reason when the main process ends the session (user deleted, password changed). */
export function onSessionEnded(listener: (message: string) => void): () => void {
  sessionEndedListeners.add(listener);
  return () => sessionEndedListeners.delete(listener);
}

/** Watches every answer for the UNAUTHORIZED that means the session was ended under the console. */
const sessionLink: TRPCLink<AppRouter> =
  () =>
  ({ next, op }) =>
    observable((observer) =>
      next(op).subscribe({
        next: (value) => observer.next(value),
        error: (error) => {
          if (error.data?.code === 'UNAUTHORIZED' && !op.path.startsWith('auth.')) for (const listener of sessionEndedListeners) listener(error.message);
          observer.error(error);
        },
        complete: () => observer.complete(),
      }),
    );

export const api = createTRPCClient<AppRouter>({ links: [sessionLink, consoleLink()] });

/** A failed call as a screen shows it. */
export interface DescribedError {
  /** The error's own message (the core's first message, or tRPC's). */
  message: string;
  /** The core's messages by top-level field: `origins[1] must be …` (detail key `origins.1`) is under `origins`. */
  fields: Record<string, string[]>;
  /** The core's messages about no field (a refusal, a conflict). */
  general: string[];
}

export function describeError(error: unknown): DescribedError {
  if (!(error instanceof TRPCClientError)) return { message: String(error), fields: {}, general: [] };
  const data = error.data as { details?: Record<string, unknown>; messages?: string[] } | undefined;
  const detailFields = new Set(Object.keys(data?.details ?? {}).map((key) => key.split('.')[0] ?? key));
  const described: DescribedError = { message: error.message, fields: {}, general: [] };
  for (const line of data?.messages ?? []) {
    const field = /^[A-Za-z_]+/.exec(line)?.[0];
    if (field && detailFields.has(field)) (described.fields[field] ??= []).push(line);
    else described.general.push(line);
  }
  return described;
}

/** What each procedure answers and takes, for screens' state and forms. */
export type Outputs = inferRouterOutputs<AppRouter>;
export type Inputs = inferRouterInputs<AppRouter>;
