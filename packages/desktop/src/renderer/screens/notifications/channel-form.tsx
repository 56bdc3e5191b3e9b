import { useState } from 'react';
import type { ChannelType } from '@dms/core';
import { api, type Outputs } from '../../trpc-client.js';
import { Field } from '../../ui/form-field.js';
import { SelectField } from '../../ui/select-field.js';
import { FormHeading } from '../../ui/form-heading.js';
import { FormActions } from '../../ui/form-actions.js';
import { FieldMessages, ProblemAlert } from '../../ui/problem-alert.js';
import { formProblem, type FormProblem } from '../../ui/form-problem.js';
import { useFormSave } from '../../ui/use-form-save.js';
import { optionsOf } from '../../labels/storage-labels.js';
import { severityNames } from '../../labels/snmp-choices.js';
import { channelDigestLabels, channelTypeLabels, jobOutcomeLabels } from '../../labels/notification-labels.js';
import { alertSourceLabels } from '../../labels/watch-labels.js';
import { ChannelSettingsFields } from './channel-settings-fields.js';
import { settingsBody, settingsFieldLabels } from './channel-settings.js';

export type NotificationChannel = Outputs['notificationChannels']['list']['notification_channels'][number];
export type CreatedChannel = Outputs['notificationChannels']['create'];

const formFields = {
  name: 'Name',
  type: 'Type',
  enabled: 'Enabled',
  min_level: 'Lowest level',
  sources: 'Sources',
  digest: 'When',
  digest_hour: 'Daily digest hour (UTC)',
  ...settingsFieldLabels,
};

const typeOptions = optionsOf(channelTypeLabels);
const levelOptions = Object.entries(severityNames).map(([level, name]) => [level, `${name} (${level})`] as const);
const digestOptions = optionsOf(channelDigestLabels);
/** The sources a channel may take, in two groups: the alert sources, and the share tests' and scans' outcomes. */
const sourceGroups = [
  { legend: 'Alerts', choices: optionsOf(alertSourceLabels) },
  { legend: 'Share tests and scans', choices: optionsOf(jobOutcomeLabels) },
] as const;

interface ChannelFormProps {
  /** The channel edited; none for a new one. */
  channel?: NotificationChannel;
  /** What the core answered: a new webhook's answer carries its signing secret, once. */
  onSaved: (saved: CreatedChannel) => void;
  onCancel?: () => void;
}

/**
 * Creates a notification channel, or edits one: what it is sent (lowest level, sources) and the
 * type's own settings. The type is chosen once: the core refuses changing it. The core's field
 * errors sit under their fields (a setting's too).
 */
export function ChannelForm({ channel, onSaved, onCancel }: ChannelFormProps) {
  const [type, setType] = useState<ChannelType>(channel?.type ?? 'webhook');
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const form = channel ? `channel-${channel.id}` : 'channel-new';
  const { onSubmit } = useFormSave(async (data) => {
    const fields = {
      name: String(data.get('name') ?? '').trim(),
      enabled: data.get('enabled') !== null,
      min_level: Number(data.get('min_level')),
      sources: data.getAll('sources').length > 0 ? data.getAll('sources').map(String) : null,
      digest: String(data.get('digest')) as NotificationChannel['digest'],
      digest_hour: Number(data.get('digest_hour') ?? 8),
      settings: settingsBody(type, data, channel !== undefined),
    };
    try {
      const saved = channel
        ? await api.notificationChannels.update.mutate({ channel: channel.id, body: fields })
        : await api.notificationChannels.create.mutate({ ...fields, type });
      setProblem(null);
      onSaved(saved);
    } catch (caught) {
      setProblem(formProblem(caught, formFields, 'settings'));
      throw caught;
    }
  });
  const headingId = `${form}-heading`;
  const sourcesErrorId = `${form}-sources-error`;
  return (
    <form className="admin-form channel-form" aria-labelledby={headingId} onSubmit={onSubmit} noValidate>
      <FormHeading id={headingId} focusOnMount={channel !== undefined}>
        {channel ? `Edit channel ${channel.name}` : 'New notification channel'}
      </FormHeading>
      <Field form={form} name="name" label="Name" errors={problem?.fields} defaultValue={channel?.name} autoComplete="off" />
      {channel ? (
        <p className="hint">
          Type: <strong>{channelTypeLabels[channel.type]}</strong> (fixed once created: to change it, create another channel and delete this one)
        </p>
      ) : (
        <SelectField
          form={form}
          name="type"
          label="Type"
          errors={problem?.fields}
          options={typeOptions}
          value={type}
          onChange={(event) => setType(event.target.value as ChannelType)}
        />
      )}
      <ChannelSettingsFields type={type} form={form} settings={channel?.settings} errors={problem?.fields} />
      <SelectField
        form={form}
        name="min_level"
        label="Lowest level"
        errors={problem?.fields}
        options={levelOptions}
        defaultValue={String(channel?.min_level ?? 3)}
        hint="Events below it are not sent; routine successes are info (1)."
      />
      <fieldset className="channel-sources" aria-describedby={problem?.fields['sources'] ? sourcesErrorId : undefined}>
        <legend>Sources</legend>
        <p className="hint">None ticked: every alert source and job outcome.</p>
        {sourceGroups.map(({ legend, choices }) => (
          <fieldset key={legend} className="source-group">
            <legend>{legend}</legend>
            <div className="source-grid">
              {choices.map(([source, label]) => (
                <label key={source} className="inline">
                  <input type="checkbox" name="sources" value={source} defaultChecked={channel?.sources?.includes(source) ?? false} />
                  {label}
                </label>
              ))}
            </div>
          </fieldset>
        ))}
        <FieldMessages id={sourcesErrorId} messages={problem?.fields['sources']} />
      </fieldset>
      <SelectField form={form} name="digest" label="When" errors={problem?.fields} options={digestOptions} defaultValue={channel?.digest ?? 'immediately'} />
      <Field
        form={form}
        name="digest_hour"
        label="Daily digest hour (UTC)"
        hint="0-23: when a daily digest is sent"
        errors={problem?.fields}
        type="number"
        inputMode="numeric"
        min={0}
        max={23}
        step={1}
        defaultValue={channel?.digest_hour ?? 8}
      />
      <label className="inline">
        <input type="checkbox" name="enabled" defaultChecked={channel?.enabled ?? true} />
        Enabled: send it what it takes
      </label>
      <ProblemAlert problem={problem} />
      <FormActions editing={channel !== undefined} create="Add channel" save="Save channel" onCancel={onCancel} />
    </form>
  );
}
