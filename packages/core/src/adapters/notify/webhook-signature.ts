import { createHmac, randomBytes } from 'node:crypto';

/** A new signing secret, as Standard Webhooks writes one: `whsec_` and 24 random bytes in base64. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/**
 * The Standard Webhooks headers of one body: `webhook-id`, `webhook-timestamp` (seconds) and
 * `webhook-signature`, `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` keyed by the
 * secret's bytes (the base64 after `whsec_`).
 */
export function signWebhook(secret: string, id: string, at: Date, body: string): Record<string, string> {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` };
}
