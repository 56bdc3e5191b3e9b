/**
 * Seals secrets at rest (share passwords, SNMP communities, job payloads): what is stored is
 * never the secret itself. The adapter is AES-256-GCM under the server's secret key
 * (`adapters/aes-gcm/aes-gcm-secret-box.ts`).
 */
export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
  /**
   * A keyed digest of `text` (HMAC-SHA-256 under a key derived from the secret key): equal texts
   * give equal digests, and without the key a digest says nothing of its text. For comparing a
   * secret with a later one without storing it (docs/decisions/153-test-before-save.md).
   */
  fingerprint(text: string): string;
}
