import { useState } from 'react';
import { api, type Outputs } from '../../trpc-client.js';
import { Field, FormError } from '../../ui/form-field.js';
import { SelectField } from '../../ui/select-field.js';
import { nasTypeLabels, optionsOf } from '../../labels/storage-labels.js';
import { FormActions } from '../../ui/form-actions.js';
import { useFormSave } from '../../ui/use-form-save.js';

export type NasRow = Outputs['nas']['list']['nas'][number];

const typeOptions = optionsOf(nasTypeLabels);

/**
 * Adds a NAS, or edits one (`editing`); the core's field errors sit under their fields. An
 * emptied comment or price is cleared (null), as PUT's partial update takes it.
 */
export function NasForm({ editing, onSaved, onCancel }: { editing: NasRow | null; onSaved: (nas: NasRow, created: boolean) => void; onCancel: () => void }) {
  const [type, setType] = useState<string>(editing?.type ?? typeOptions[0]![0]);
  const { error, onSubmit } = useFormSave(async (form, formElement) => {
    const value = (name: string) => String(form.get(name) ?? '').trim();
    const fields = { name: value('name'), host: value('host'), type: value('type') as NasRow['type'] };
    const saved = editing
      ? await api.nas.update.mutate({ nas: editing.id, body: { ...fields, comment: value('comment') || null, price: value('price') || null } })
      : await api.nas.create.mutate({
          ...fields,
          ...(value('comment') ? { comment: value('comment') } : {}),
          ...(value('price') ? { price: value('price') } : {}),
        });
    if (!editing) {
      formElement.reset();
      setType(typeOptions[0]![0]);
    }
    onSaved(saved, !editing);
  });
  const title = editing ? `Edit NAS ${editing.name}` : 'Add a NAS';
  return (
    <form className="storage-form" aria-labelledby="nas-form-title" onSubmit={onSubmit} noValidate>
      <h2 id="nas-form-title">{title}</h2>
      <Field form="nas" name="name" label="Name" errors={error?.fields} defaultValue={editing?.name} required autoComplete="off" />
      <SelectField
        form="nas"
        name="type"
        label="Type"
        errors={error?.fields}
        options={typeOptions}
        value={type}
        onChange={(event) => setType(event.target.value)}
      />
      <Field
        form="nas"
        name="host"
        label="Host"
        errors={error?.fields}
        defaultValue={editing?.host}
        required
        autoComplete="off"
        hint={type === 'local' ? 'localhost: the shares are directories on this computer' : 'A host name, an IPv4 address, or an [IPv6] address'}
      />
      <Field form="nas" name="comment" label="Comment (optional)" errors={error?.fields} defaultValue={editing?.comment ?? ''} autoComplete="off" />
      <Field
        form="nas"
        name="price"
        label="Price (optional)"
        errors={error?.fields}
        defaultValue={editing?.price ?? ''}
        inputMode="decimal"
        autoComplete="off"
        hint="A decimal amount such as 12.50"
      />
      <FormError error={error} />
      <FormActions editing={editing !== null} create="Add NAS" save="Save NAS" onCancel={onCancel} />
    </form>
  );
}
