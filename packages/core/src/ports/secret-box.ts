/**
 * Seals secrets at rest (share passwords, SNMP communities, job payloads): what is stored is
 * never the secret itself. The adapter is AES-256-GCM under the server's secret key
 * (`adapters/aes-gcm/aes-gcm-secret-box.ts`).
 */
export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}
