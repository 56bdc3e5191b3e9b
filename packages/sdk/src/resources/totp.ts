import type { Call } from '../call.js';
import type { CallOptions, SecondFactor, TotpEnrollment, TotpRecoveryCodes, TotpStatus } from '../types.js';

/** The signed-in user's own TOTP second factor (an API key is refused). */
export interface TotpResource {
  status(options?: CallOptions): Promise<TotpStatus>;
  /** A new secret and its `otpauth://` URI for an authenticator app; not in force until `confirm`. */
  enroll(options?: CallOptions): Promise<TotpEnrollment>;
  /** Turns TOTP on with a code of the enrolled secret; answers the recovery codes, this once. */
  confirm(totpCode: string, options?: CallOptions): Promise<TotpRecoveryCodes>;
  /** Turns TOTP off with a current code or a recovery code. */
  disable(factor: SecondFactor, options?: CallOptions): Promise<void>;
}

export function totpResource(call: Call): TotpResource {
  return {
    status: (options = {}) => call('GET', '/auth/totp', { signal: options.signal }) as Promise<TotpStatus>,
    enroll: (options = {}) => call('POST', '/auth/totp', { signal: options.signal }) as Promise<TotpEnrollment>,
    confirm: (totpCode, options = {}) =>
      call('POST', '/auth/totp/confirm', { body: { totp_code: totpCode }, signal: options.signal }) as Promise<TotpRecoveryCodes>,
    disable: async (factor, options = {}) => {
      await call('POST', '/auth/totp/disable', { body: factor, signal: options.signal });
    },
  };
}
