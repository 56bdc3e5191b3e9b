import { DomainError } from '../../errors/domain-error.js';
import type { SecretBox } from '../../ports/secret-box.js';

/** A secret column as the stores see it: sealed when written, opened when read. */
export interface SecretColumn {
  seal(clear: string): string;
  open(stored: string): string;
  /** Clear text written before the column was sealed: sealed in place at start. */
  isLegacy(stored: string): boolean;
}

/**
 * The SecretBox's `v1:` + base64(iv ‖ tag ‖ ciphertext) of at least one byte: 40+ base64
 * characters. Anything else is legacy clear text, also a clear community that merely starts
 * with `v1:` (printable ASCII allows it), which the bare prefix would mistake for sealed.
 */
const sealedForm = /^v1:(?:[A-Za-z0-9+/]{4}){9,}(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/;

export function secretColumn(secrets: SecretBox | undefined): SecretColumn {
  const isLegacy = (stored: string) => !sealedForm.test(stored);
  return {
    seal: (clear) => (secrets ? secrets.seal(clear) : clear),
    open(stored) {
      if (isLegacy(stored)) return stored;
      if (!secrets) throw new DomainError('internal', 'a sealed secret is stored, but this storage was opened without the secret key');
      return secrets.open(stored);
    },
    isLegacy,
  };
}
