import { useState } from 'react';
import { api, type Outputs } from '../../trpc-client.js';
import { Field, FormError } from '../../ui/form-field.js';
import { SelectField } from '../../ui/select-field.js';
import { FormActions } from '../../ui/form-actions.js';
import { useFormSave } from '../../ui/use-form-save.js';

export type ShareRow = Outputs['shares']['list']['nas_shares'][number];

interface ShareFormProps {
  nas: Array<{ id: number; name: string; type: string }>;
  /** The share being edited, or null to create one. */
  editing: ShareRow | null;
  /** The NAS a new share starts on (the one the table is filtered to, say). */
  defaultNasId?: string;
  onSaved: (share: ShareRow, created: boolean) => void;
  onCancel: () => void;
}

/**
 * Creates a share on a NAS, or edits one (a share stays on its NAS); the core's field errors are
 * shown under their fields. An emptied optional field is cleared; an empty password on edit keeps
 * the stored one.
 */
export function ShareForm({ nas, editing, defaultNasId, onSaved, onCancel }: ShareFormProps) {
  const [nasId, setNasId] = useState(editing ? String(editing.nas_id) : defaultNasId || String(nas[0]?.id ?? ''));
  const local = nas.find((item) => String(item.id) === nasId)?.type === 'local';
  const { error, onSubmit } = useFormSave(async (form, formElement) => {
    const value = (name: string) => String(form.get(name) ?? '');
    const password = value('password');
    let saved: ShareRow;
    if (editing) {
      const body = {
        name: value('name').trim(),
        path: value('path').trim(),
        options: value('options').trim() || null,
        username: value('username').trim() || null,
        ...(password ? { password } : {}),
      };
      saved = await api.shares.update.mutate({ share: editing.id, body });
    } else {
      const body = {
        name: value('name').trim(),
        path: value('path').trim(),
        ...(value('options').trim() ? { options: value('options').trim() } : {}),
        ...(value('username').trim() ? { username: value('username').trim() } : {}),
        ...(password ? { password } : {}),
      };
      saved = await api.shares.create.mutate({ nas: nasId, body });
    }
    if (!editing) formElement.reset();
    onSaved(saved, !editing);
  });
  const nasName = editing ? (nas.find((item) => item.id === editing.nas_id)?.name ?? `NAS #${editing.nas_id}`) : '';
  return (
    <form className="storage-form share-form" aria-labelledby="share-form-title" onSubmit={onSubmit} noValidate>
      <h2 id="share-form-title">{editing ? `Edit share ${editing.name} on ${nasName}` : 'New share'}</h2>
      {!editing && (
        <SelectField
          form="share"
          name="nas"
          label="NAS"
          errors={error?.fields}
          options={nas.map((item) => [String(item.id), item.name] as const)}
          value={nasId}
          onChange={(event) => setNasId(event.target.value)}
        />
      )}
      <Field form="share" name="name" label="Share name" errors={error?.fields} defaultValue={editing?.name} required autoComplete="off" />
      <Field
        form="share"
        name="path"
        label="Path"
        errors={error?.fields}
        defaultValue={editing?.path}
        required
        autoComplete="off"
        hint={local ? 'A directory under this computer’s share roots, such as projects' : 'The export or share path on the NAS'}
      />
      <Field
        form="share"
        name="options"
        label="Mount options (optional)"
        errors={error?.fields}
        defaultValue={editing?.options ?? ''}
        autoComplete="off"
        hint="Comma-separated key or key=value, no spaces: ro,vers=3"
      />
      <Field form="share" name="username" label="User name (optional)" errors={error?.fields} defaultValue={editing?.username ?? ''} autoComplete="off" />
      <Field
        form="share"
        name="password"
        label="Password (optional)"
        type="password"
        errors={error?.fields}
        autoComplete="new-password"
        hint={editing ? 'Leave empty to keep the stored password.' : undefined}
      />
      <FormError error={error} />
      <FormActions editing={editing !== null} create="Create share" save="Save share" onCancel={onCancel} />
    </form>
  );
}
