import { api, type Outputs } from '../../trpc-client.js';
import { Field, FormError } from '../../ui/form-field.js';
import { SelectField } from '../../ui/select-field.js';
import { optionsOf, poolContentLabels, poolTypeLabels } from '../../labels/storage-labels.js';
import { FormActions } from '../../ui/form-actions.js';
import { useFormSave } from '../../ui/use-form-save.js';

export type PoolRow = Outputs['pools']['list']['pools'][number];

const typeOptions = optionsOf(poolTypeLabels);
const contentOptions = optionsOf(poolContentLabels);

/** Adds a pool or edits its own fields; its shares are chosen in the membership editor. */
export function PoolForm({
  editing,
  onSaved,
  onCancel,
}: {
  editing: PoolRow | null;
  onSaved: (pool: PoolRow, created: boolean) => void;
  onCancel: () => void;
}) {
  const { error, onSubmit } = useFormSave(async (form, formElement) => {
    const value = (name: string) => String(form.get(name) ?? '').trim();
    const fields = { name: value('name'), type: value('type') as PoolRow['type'], content: value('content') as PoolRow['content'] };
    const saved = editing
      ? await api.pools.update.mutate({ pool: editing.id, body: { ...fields, comment: value('comment') || null } })
      : await api.pools.create.mutate({ ...fields, ...(value('comment') ? { comment: value('comment') } : {}) });
    if (!editing) formElement.reset();
    onSaved(saved, !editing);
  });
  return (
    <form className="storage-form" aria-labelledby="pool-form-title" onSubmit={onSubmit} noValidate>
      <h2 id="pool-form-title">{editing ? `Edit pool ${editing.name}` : 'Add a pool'}</h2>
      <Field form="pool" name="name" label="Name" errors={error?.fields} defaultValue={editing?.name} required autoComplete="off" />
      <SelectField form="pool" name="type" label="Type" errors={error?.fields} options={typeOptions} defaultValue={editing?.type ?? 'primary'} />
      <SelectField
        form="pool"
        name="content"
        label="Content"
        errors={error?.fields}
        options={contentOptions}
        defaultValue={editing?.content ?? 'nas'}
        hint="Only a pool of NAS shares takes shares."
      />
      <Field form="pool" name="comment" label="Comment (optional)" errors={error?.fields} defaultValue={editing?.comment ?? ''} autoComplete="off" />
      <FormError error={error} />
      <FormActions editing={editing !== null} create="Add pool" save="Save pool" onCancel={onCancel} />
    </form>
  );
}
