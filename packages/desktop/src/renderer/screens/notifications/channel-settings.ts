import type { ChannelType } from '@dms/core';

/** The settings fields the console edits, by their API names (docs/api.md#notification-channels). */
export type SettingsField = 'url' | 'host' | 'port' | 'security' | 'username' | 'password' | 'from' | 'to' | 'ca' | 'token' | 'transport' | 'facility';

/** How a field is read from the form and sent. */
type FieldKind = 'text' | 'number' | 'choice' | 'optional' | 'secret' | 'list';

const fieldKinds: Record<SettingsField, FieldKind> = {
  url: 'text',
  host: 'text',
  from: 'text',
  port: 'number',
  security: 'choice',
  transport: 'choice',
  facility: 'choice',
  username: 'optional',
  ca: 'optional',
  password: 'secret',
  token: 'secret',
  to: 'list',
};

/** Each type's settings in the form's order; the secrets are written, never shown back. */
export const settingsFieldsByType: Record<ChannelType, readonly SettingsField[]> = {
  webhook: ['url'],
  email: ['host', 'port', 'security', 'username', 'password', 'from', 'to', 'ca'],
  ntfy: ['url', 'token'],
  slack: ['url'],
  discord: ['url'],
  teams: ['url'],
  syslog: ['host', 'port', 'transport', 'facility', 'ca'],
  alertmanager: ['url', 'token'],
};

/** The labels the form shows the settings under, and names them by in the core's messages. */
export const settingsFieldLabels: Record<SettingsField, string> = {
  url: 'URL',
  host: 'Host',
  port: 'Port',
  security: 'Security',
  username: 'User name',
  password: 'Password',
  from: 'From',
  to: 'To',
  ca: 'CA certificate',
  token: 'Token',
  transport: 'Transport',
  facility: 'Facility',
};

export const isSecretField = (field: SettingsField): boolean => fieldKinds[field] === 'secret';

/** The checkbox that removes a stored secret (`null`), beside its field. */
export const removeSecretName = (field: SettingsField): string => `remove_${field}`;

/** One address per line or comma: blanks dropped, the core checks each. */
function listOf(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/**
 * The type's `settings` as the form holds them. Empty is "not sent" where the core has a default
 * or keeps what is stored (a port, a secret left blank on edit); an emptied optional field is
 * cleared (null) on edit. A port that is not a number is sent as typed, so the core's message
 * names it.
 */
export function settingsBody(type: ChannelType, data: FormData, editing: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of settingsFieldsByType[type]) {
    const raw = String(data.get(field) ?? '').trim();
    switch (fieldKinds[field]) {
      case 'secret':
        if (data.get(removeSecretName(field))) body[field] = null;
        else if (raw) body[field] = raw;
        break;
      case 'number':
        if (raw) body[field] = /^\d+$/.test(raw) ? Number(raw) : raw;
        break;
      case 'optional':
        if (raw) body[field] = raw;
        else if (editing) body[field] = null;
        break;
      case 'list':
        body[field] = listOf(raw);
        break;
      default:
        body[field] = raw;
    }
  }
  return body;
}

/** A stored setting as a field's text: a list joined by commas, nothing for what is not there. */
export function settingText(value: unknown): string {
  if (Array.isArray(value)) return value.join(', ');
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}
