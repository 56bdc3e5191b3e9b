import { passwordCredential } from '@dms/core/runtime';
import { z } from 'zod';
import { DomainError, type Principal } from '@dms/core';
import { consoleOrigin, desktopAddress, publicProcedure, router } from '../trpc.js';
import { signInThroughBrowser } from '../oidc-loopback.js';

export { desktopAddress };

/** A name and a password, and for a user with TOTP on the code (or a recovery code) the core asks for. */
const credentials = z.object({ username: z.string(), password: z.string(), totp_code: z.string().optional(), recovery_code: z.string().optional() });

/**
 * Who is signed in, as the renderer shows it: the name, whether an admin, and the scopes the
 * role grants (`controller/action`), which decide the screens in the menu (docs/decisions/176-roles.md).
 */
function consoleUser(principal: Principal): { username: string; admin: boolean; scopes: string[] } {
  if (principal.kind !== 'user') return { username: '', admin: false, scopes: [] };
  return { username: principal.username, admin: principal.admin, scopes: principal.scopes.map((scope) => `${scope.controller}/${scope.action}`) };
}

export const authRouter = router({
  /**
   * Through the core's sign-in, with the same throttling and lockout as a REST request; the
   * main process keeps the session credential it returns, never the password. The core records
   * the sign-in (or the failed one) as made through the console.
   */
  signIn: publicProcedure.input(credentials).mutation(async ({ ctx, input }) => {
    const { principal, session } = await ctx.core.access.signIn(
      { address: desktopAddress, via: consoleOrigin.via, credential: passwordCredential(input.username, input.password) },
      { factor: { totp_code: input.totp_code, recovery_code: input.recovery_code }, client: { userAgent: 'dms console', ip: desktopAddress } },
    );
    ctx.session.signIn(session);
    return consoleUser(principal);
  }),
  /** Whether the sign-in screen offers single sign-on, and its button's label. */
  singleSignOn: publicProcedure.query(async ({ ctx }) => {
    const button = await ctx.core.oidc.button();
    return { enabled: button.enabled && ctx.openExternal !== undefined, label: button.label };
  }),
  /**
   * Single sign-on: the provider in the system browser, back to a loopback listener of the main
   * process, the code exchanged by the core (docs/decisions/177-oidc-sign-in.md). Resolves once
   * the browser came back; the core audits the sign-in as made through the console.
   */
  signInWithProvider: publicProcedure.mutation(async ({ ctx }) => {
    const { openExternal } = ctx;
    if (!openExternal) throw new DomainError('forbidden', 'this console cannot open a browser for single sign-on');
    const { user } = await signInThroughBrowser(ctx.core, openExternal, consoleOrigin);
    const { principal, session } = await ctx.core.auth.sessionFor(user);
    ctx.session.signIn(session);
    return consoleUser(principal);
  }),
  signOut: publicProcedure.mutation(({ ctx }) => {
    ctx.session.signOut();
  }),
  /** Who is signed in, as stored now: null once the session has ended. */
  me: publicProcedure.query(async ({ ctx }) => {
    const credential = ctx.session.credential;
    if (!credential) return null;
    // Refused (thrown at once or later) reads as signed out.
    const principal = await Promise.resolve()
      .then(() => ctx.core.access.authenticateRequest({ address: desktopAddress, via: consoleOrigin.via, credential }))
      .catch(() => undefined);
    if (principal?.kind !== 'user') {
      ctx.session.signOut();
      return null;
    }
    return consoleUser(principal);
  }),
});
