import { initTRPC, TRPCError } from '@trpc/server';
import { calledFrom, toDomainError, type CallOrigin, type DomainError, type DomainErrorCode, type ErrorDetails, type Principal } from '@dms/core';
import type { DesktopContext } from './context.js';
import { trpcCodeByDomainCode } from './error-table.js';

/** What a client reads in `error.data` beside tRPC's own fields: the model_error of the core. */
export interface DomainErrorData {
  domainCode: DomainErrorCode;
  details: ErrorDetails;
  messages: string[];
}

// By name, not instanceof: the error may come from another realm (docs/decisions/074-console-ipc-and-router.md).
const isDomainLike = (value: unknown): value is DomainError => value instanceof Error && value.name === 'DomainError' && 'code' in value;

/**
 * Any failure of a procedure as the TRPCError a client sees: a DomainError through the table,
 * tRPC's own input errors as they are, anything else as the core maps it (no internal detail).
 */
export function toTrpcError(error: TRPCError): TRPCError {
  if (isDomainLike(error.cause)) return fromDomainError(error.cause);
  if (error.code !== 'INTERNAL_SERVER_ERROR') return error;
  return fromDomainError(toDomainError(error.cause));
}

/** The same mapping for what a subscription throws while it streams, past the middleware. */
export function asTrpcError(error: unknown): TRPCError {
  return toTrpcError(error instanceof TRPCError ? error : new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: error }));
}

function fromDomainError(domain: DomainError): TRPCError {
  return new TRPCError({ code: trpcCodeByDomainCode[domain.code], message: domain.message, cause: domain });
}

const t = initTRPC.context<DesktopContext>().create({
  // The main process has no browser to fall back on: tRPC's default (off outside dev) would
  // not know Electron's packaged state, so the stack is left out always.
  isDev: false,
  errorFormatter({ shape, error }): typeof shape & { data: typeof shape.data & Partial<DomainErrorData> } {
    const cause = error.cause;
    if (!isDomainLike(cause)) return shape;
    return { ...shape, data: { ...shape.data, domainCode: cause.code, details: cause.details, messages: cause.messages } };
  },
});

const mapDomainErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok) throw toTrpcError(result.error);
  return result;
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/** Open to anyone holding the window: sign-in and the session's own state. */
export const publicProcedure = t.procedure.use(mapDomainErrors);

/** The address the core's throttling sees for the console: one local client, over IPC. */
export const desktopAddress = 'desktop-ipc';

/** Where the console's calls come in, as the audit log records them: the console, over IPC. */
export const consoleOrigin: CallOrigin = { via: 'console', clientAddress: desktopAddress };

/**
 * Everything else runs as the signed-in desktop user, as stored now: the session is
 * presented to the core on every call, as REST presents its credential on every request,
 * and a session the core refuses (user deleted, password changed) is ended here. The principal
 * carries the console's origin, so every change it makes is on record as made `via: 'console'`.
 */
export const userProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const credential = ctx.session.credential;
  if (!credential) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'sign in first' });
  let principal: Principal;
  try {
    principal = calledFrom(await ctx.core.access.authenticateRequest({ address: desktopAddress, via: consoleOrigin.via, credential }), consoleOrigin);
  } catch (error) {
    if (isDomainLike(error) && error.code === 'unauthenticated') ctx.session.signOut();
    throw error;
  }
  return next({ ctx: { ...ctx, principal } });
});
