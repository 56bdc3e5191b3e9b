import { sessionListQuerySchema } from '@dms/core';
import QRCode from 'qrcode';
import { z } from 'zod';
import { router, userProcedure } from '../trpc.js';
import { historyQuery } from './inputs.js';

/** What the core validates, passed as it is: its messages name the field. */
const secondFactor = z.object({ totp_code: z.string().optional(), recovery_code: z.string().optional() }).strict();

/**
 * The signed-in user's own account (docs/decisions/178-totp-second-factor.md,
 * docs/decisions/179-sessions.md): its second factor and its sessions.
 */
export const accountRouter = router({
  totpStatus: userProcedure.query(({ ctx }) => ctx.core.totp.status(ctx.principal)),
  /** The secret, its otpauth:// URI and that URI as an SVG QR code, drawn here so the renderer needs no image source. */
  totpEnroll: userProcedure.mutation(async ({ ctx }) => {
    const enrollment = await ctx.core.totp.enroll(ctx.principal);
    return { ...enrollment, qr_svg: await QRCode.toString(enrollment.otpauth_uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }) };
  }),
  totpConfirm: userProcedure.input(z.object({ totp_code: z.string() }).strict()).mutation(({ ctx, input }) => ctx.core.totp.confirm(ctx.principal, input)),
  totpDisable: userProcedure.input(secondFactor).mutation(({ ctx, input }) => ctx.core.totp.disable(ctx.principal, input)),
  /** The caller's sessions (an admin's: everyone's), with which one is this console's. */
  sessions: userProcedure.input(historyQuery(sessionListQuerySchema)).query(async ({ ctx, input }) => ({
    ...(await ctx.core.sessions.list(ctx.principal, input)),
    current: ctx.session.credential?.sessionId ?? null,
  })),
  revokeSession: userProcedure
    .input(z.object({ id: z.string().min(1).max(64) }))
    .mutation(({ ctx, input }) => ctx.core.sessions.revoke(ctx.principal, input.id)),
});
