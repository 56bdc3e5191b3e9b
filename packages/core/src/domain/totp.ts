import { z } from 'zod';
import { strictInput } from '../validation/strict-input.js';

/** A six-digit code of an authenticator app (RFC 6238, 30-second steps, SHA-1: what every app does). */
export const totpCodeSchema = z.string().regex(/^\d{6}$/, { message: 'must be the 6 digits your authenticator app shows' });
/** A recovery code as handed out (`xxxxx-xxxxx`); spaces, dashes and case are forgiven. */
export const recoveryCodeSchema = z
  .string()
  .min(10)
  .max(32)
  .regex(/^[A-Za-z2-7 -]+$/, { message: 'must be one of your recovery codes (letters and digits 2-7, as shown)' });

/** A second factor as a sign-in or a turn-off sends it: a code, or a recovery code. */
export const secondFactorFields = { totp_code: totpCodeSchema.optional(), recovery_code: recoveryCodeSchema.optional() };

export const totpConfirmRequestSchema = strictInput(z.object({ totp_code: totpCodeSchema }), { id: 'totp_confirm_request' });
export const totpDisableRequestSchema = strictInput(z.object(secondFactorFields), { id: 'totp_disable_request' });

/** POST /auth/totp: the secret to give an authenticator app, by hand or as a QR code of `otpauth_uri`. */
export const totpEnrollmentSchema = z.object({ secret: z.string(), otpauth_uri: z.string() }).meta({ id: 'totp_enrollment' });
/** POST /auth/totp/confirm: the recovery codes, shown this once. */
export const totpRecoveryCodesSchema = z.object({ recovery_codes: z.array(z.string()) }).meta({ id: 'totp_recovery_codes' });
/** GET /auth/totp: whether the caller's second factor is on. */
export const totpStatusSchema = z.object({ enabled: z.boolean(), pending: z.boolean(), recovery_codes_left: z.number().int() }).meta({ id: 'totp_status' });

export type TotpEnrollment = z.output<typeof totpEnrollmentSchema>;
export type TotpStatus = z.output<typeof totpStatusSchema>;
export interface SecondFactor {
  totp_code?: string | undefined;
  recovery_code?: string | undefined;
}
