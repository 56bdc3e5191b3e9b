import type { ChannelType } from '@dms/core';
import { Field, FieldFrame, type FieldErrors } from '../../ui/form-field.js';
import { SelectField } from '../../ui/select-field.js';
import { SecretField } from '../../ui/secret-field.js';
import { optionsOf } from '../../labels/storage-labels.js';
import { emailSecurityLabels, syslogFacilityLabels, syslogTransportLabels } from '../../labels/notification-labels.js';
import { removeSecretName, settingsFieldLabels, settingsFieldsByType, settingText, type SettingsField } from './channel-settings.js';

/** What a field is prefilled with on a new channel: the core's defaults, shown. */
const createDefaults: Partial<Record<SettingsField, string>> = { security: 'starttls', transport: 'udp', facility: 'daemon' };
const defaultPorts: Partial<Record<ChannelType, string>> = { email: '587', syslog: '514' };

const urlHints: Partial<Record<ChannelType, string>> = {
  webhook: 'dms POSTs each event here as signed JSON (Standard Webhooks): an http:// or https:// URL.',
  ntfy: 'The topic’s URL, e.g. https://ntfy.sh/my-dms-alerts.',
  slack: 'The incoming-webhook URL Slack gave you.',
  discord: 'The webhook URL of the Discord channel.',
  teams: 'The Workflows (or incoming) webhook URL: dms posts an Adaptive Card.',
  alertmanager: 'The Alertmanager’s base URL, e.g. http://alertmanager:9093: dms posts to /api/v2/alerts below it.',
};

const hints: Partial<Record<SettingsField, string>> = {
  from: 'The sender’s address.',
  to: 'One to 20 addresses, separated by commas.',
  ca: 'Optional: PEM certificate(s) of a private CA the server’s certificate must chain to, beside the system’s.',
};

function hintOf(type: ChannelType, field: SettingsField): string | undefined {
  if (field === 'url') return urlHints[type];
  if (field === 'host') return type === 'email' ? 'The SMTP server’s host name or address.' : 'A host name, an IPv4 address or [IPv6].';
  if (field === 'port') return type === 'syslog' ? '514 for UDP and TCP by default; TLS is usually 6514.' : '587 for STARTTLS, 465 for TLS.';
  if (field === 'token') return type === 'ntfy' ? 'Optional: an access token, sent as Bearer.' : 'Optional: the Bearer token of a proxy in front of it.';
  if (field === 'password') return 'Optional: the SMTP password, sealed at rest and never shown.';
  return hints[field];
}

interface ChannelSettingsFieldsProps {
  type: ChannelType;
  form: string;
  /** The stored settings (without the secrets) of the channel edited; none for a new one. */
  settings: Record<string, unknown> | undefined;
  errors: FieldErrors;
}

/**
 * The type's own settings, each under its label with the core's messages (`settings.url` shows
 * under URL). A secret is typed in a secret field and never shown back: left empty on edit it is
 * kept; "Remove" clears it.
 */
export function ChannelSettingsFields({ type, form, settings, errors }: ChannelSettingsFieldsProps) {
  const editing = settings !== undefined;
  const initial = (field: SettingsField) =>
    editing ? settingText(settings[field]) : field === 'port' ? (defaultPorts[type] ?? '') : (createDefaults[field] ?? '');
  const common = (field: SettingsField) => ({ form, name: field, label: settingsFieldLabels[field], errors, hint: hintOf(type, field) });
  return (
    <fieldset className="channel-settings">
      <legend>Settings</legend>
      {settingsFieldsByType[type].map((field) => {
        switch (field) {
          case 'password':
          case 'token':
            return (
              <div key={`${type}-${field}`}>
                <SecretField
                  {...common(field)}
                  hint={editing ? 'Stored sealed and never shown: leave it empty to keep the stored one.' : hintOf(type, field)}
                />
                {editing && (
                  <label className="inline">
                    <input type="checkbox" name={removeSecretName(field)} />
                    Remove the stored {settingsFieldLabels[field].toLowerCase()}
                  </label>
                )}
              </div>
            );
          case 'security':
            return <SelectField key={`${type}-${field}`} {...common(field)} options={optionsOf(emailSecurityLabels)} defaultValue={initial(field)} />;
          case 'transport':
            return <SelectField key={`${type}-${field}`} {...common(field)} options={optionsOf(syslogTransportLabels)} defaultValue={initial(field)} />;
          case 'facility':
            return <SelectField key={`${type}-${field}`} {...common(field)} options={optionsOf(syslogFacilityLabels)} defaultValue={initial(field)} />;
          case 'ca':
            return (
              <FieldFrame key={`${type}-${field}`} {...common(field)} label={`${settingsFieldLabels[field]} (optional)`}>
                {(control) => <textarea {...control} rows={3} defaultValue={initial(field)} spellCheck={false} />}
              </FieldFrame>
            );
          default:
            return (
              <Field
                key={`${type}-${field}`}
                {...common(field)}
                label={field === 'username' ? `${settingsFieldLabels[field]} (optional)` : settingsFieldLabels[field]}
                defaultValue={initial(field)}
                inputMode={field === 'port' ? 'numeric' : undefined}
                type={field === 'url' ? 'url' : 'text'}
                autoComplete="off"
                spellCheck={false}
              />
            );
        }
      })}
    </fieldset>
  );
}
