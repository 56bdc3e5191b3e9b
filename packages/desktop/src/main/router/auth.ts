import { z } from 'zod';
import { publicProcedure, router } from '../trpc.js';

/** The address the core's throttling sees for the console: one local client, over IPC. */
export const desktopAddress = 'desktop-ipc';

const credentials = z.object({ username: z.string(), password: z.string() });

export const authRouter = router({
  /**
   * Through the same authentication as a REST request (Basic), so the console gets the
   * core's throttling and lockout too; the principal stays in the main process.
   */
  signIn: publicProcedure.input(credentials).mutation(async ({ ctx, input }) => {
    const authorization = `Basic ${Buffer.from(`${input.username}:${input.password}`, 'utf8').toString('base64')}`;
    const principal = await ctx.core.access.authenticateRequest({ address: desktopAddress, authorization });
    ctx.session.signIn(principal);
    return { username: principal.kind === 'user' ? principal.username : principal.name, admin: principal.kind === 'user' && principal.admin };
  }),
  signOut: publicProcedure.mutation(({ ctx }) => {
    ctx.session.signOut();
  }),
  me: publicProcedure.query(({ ctx }) => {
    const principal = ctx.session.principal;
    if (principal?.kind !== 'user') return null;
    return { username: principal.username, admin: principal.admin };
  }),
});
