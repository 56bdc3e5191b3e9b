import { randomInt } from 'node:crypto';

/**
 * otplib, imported at the first TOTP operation, not with the service: most servers never enroll
 * a second factor, and otplib with its hashes is about 1 MB of heap (decision 188).
 */
let otplib: Promise<typeof import('otplib')> | undefined;
const loadOtplib = () => (otplib ??= import('otplib'));

/** RFC 6238 as every authenticator app does it: SHA-1, 6 digits, 30-second steps. */
export const totpPeriodSeconds = 30;
/** A code of the step before or after the server's is accepted: clocks drift, people type slowly. */
const toleranceSeconds = totpPeriodSeconds;
export const recoveryCodeCount = 10;
const recoveryAlphabet = 'abcdefghijklmnopqrstuvwxyz234567';

/** A new secret (160 bits, base32) and the `otpauth://` URI an app scans. */
export async function newTotpSecret(username: string): Promise<{ secret: string; uri: string }> {
  const { generateSecret, generateURI } = await loadOtplib();
  const secret = generateSecret();
  return { secret, uri: generateURI({ issuer: 'dms', label: username, secret }) };
}

/**
 * The time step a code belongs to when it is valid at `now` (within one step either side) and
 * of a step after `afterStep`; undefined otherwise. The caller records the step it accepted,
 * so a code is never taken twice.
 */
export async function totpCodeStep(secret: string, code: string, now: Date, afterStep: number | null): Promise<number | undefined> {
  const { verify } = await loadOtplib();
  const result = await verify({
    secret,
    token: code,
    epoch: Math.floor(now.getTime() / 1000),
    epochTolerance: toleranceSeconds,
    ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : undefined;
}

/** Ten codes of 50 random bits each, `xxxxx-xxxxx`: shown once, stored as keyed digests. */
export function newRecoveryCodes(): string[] {
  const part = () => Array.from({ length: 5 }, () => recoveryAlphabet[randomInt(recoveryAlphabet.length)]).join('');
  return Array.from({ length: recoveryCodeCount }, () => `${part()}-${part()}`);
}

/** A recovery code as typed (any case, spaces or dashes) in the one form its digest is of. */
export function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, '');
}
