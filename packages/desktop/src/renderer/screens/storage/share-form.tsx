import { useRef, useState } from 'react';
import { api, type Outputs } from '../../trpc-client.js';
import { Field, FormError } from '../../ui/form-field.js';
import { SelectField } from '../../ui/select-field.js';
import { useFormSave } from '../../ui/use-form-save.js';
import { useLoad } from '../../ui/use-load.js';
import { JobProgress } from '../../ui/job-progress.js';
import { helpFor } from './share-form-help.js';
import { useFormTest, type FormTestTarget } from './share-form-test.js';

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

/** The form's fields as typed, trimmed; an empty optional field is ''. */
function formValues(form: FormData) {
  const value = (name: string) => String(form.get(name) ?? '');
  return {
    name: value('name').trim(),
    path: value('path').trim(),
    options: value('options').trim(),
    username: value('username').trim(),
    password: value('password'),
  };
}
type FormValues = ReturnType<typeof formValues>;

/** A create body: only the fields given. */
function createBody(values: FormValues): Record<string, string> & { name: string; path: string } {
  return {
    name: values.name,
    path: values.path,
    ...(values.options ? { options: values.options } : {}),
    ...(values.username ? { username: values.username } : {}),
    ...(values.password ? { password: values.password } : {}),
  };
}

/**
 * What Test runs for the form's values. A new share: the unsaved test. An edited share whose
 * path, options and user name are as saved and whose password is left empty: the saved share,
 * with its stored password. Anything else: the unsaved test of the values as edited, which
 * cannot carry the stored password (it never leaves the core), so an empty password is said.
 */
function testPlan(values: FormValues, nasId: number, editing: ShareRow | null): { target: FormTestTarget; note: string | null } {
  if (editing) {
    const same = values.path === editing.path && values.options === (editing.options ?? '') && values.username === (editing.username ?? '');
    if (same && !values.password)
      return { target: { shareId: editing.id }, note: 'Nothing that reaches the share changed: testing the saved share with its stored password.' };
    if (!values.password && values.username)
      return {
        target: { nasId, body: createBody(values) },
        note: 'The stored password cannot be sent with an unsaved test: this test runs without a password. Type the password to test with it.',
      };
  }
  return { target: { nasId, body: createBody(values) }, note: null };
}

/**
 * Creates a share on a NAS, or edits one (a share stays on its NAS); the core's field errors are
 * shown under their fields. An emptied optional field is cleared; an empty password on edit keeps
 * the stored one. Test runs the values as typed before they are saved, its steps shown live below.
 */
export function ShareForm({ nas, editing, defaultNasId, onSaved, onCancel }: ShareFormProps) {
  const [nasId, setNasId] = useState(editing ? String(editing.nas_id) : defaultNasId || String(nas[0]?.id ?? ''));
  const formElement = useRef<HTMLFormElement>(null);
  const test = useFormTest();
  const [testRun, setTestRun] = useState<{ note: string | null; subject: string } | null>(null);
  const nasItem = nas.find((item) => String(item.id) === nasId);
  const roots = useLoad(() => api.nas.localRoots.query());
  const help = helpFor(nasItem?.type, roots.data);
  const { error: saveError, onSubmit } = useFormSave(async (form, element) => {
    const values = formValues(form);
    let saved: ShareRow;
    if (editing) {
      const body = {
        name: values.name,
        path: values.path,
        options: values.options || null,
        username: values.username || null,
        ...(values.password ? { password: values.password } : {}),
      };
      saved = await api.shares.update.mutate({ share: editing.id, body });
    } else {
      saved = await api.shares.create.mutate({ nas: nasId, body: createBody(values) });
    }
    if (!editing) element.reset();
    closeTest();
    onSaved(saved, !editing);
  });
  const error = test.fieldError ?? saveError;
  const nasName = nasItem?.name ?? `NAS #${nasId}`;
  const runTest = () => {
    if (!formElement.current) return;
    const values = formValues(new FormData(formElement.current));
    const plan = testPlan(values, Number(nasId), editing);
    setTestRun({ note: plan.note, subject: values.name ? `${values.name} on ${nasName}` : `the new share on ${nasName}` });
    void test.run(plan.target);
  };
  const closeTest = () => {
    test.dismiss();
    setTestRun(null);
  };
  return (
    <form ref={formElement} className="storage-form share-form" aria-labelledby="share-form-title" onSubmit={onSubmit} noValidate>
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
      <Field form="share" name="path" label="Path" errors={error?.fields} defaultValue={editing?.path} required autoComplete="off" hint={help.path} />
      <Field
        form="share"
        name="options"
        label="Mount options (optional)"
        errors={error?.fields}
        defaultValue={editing?.options ?? ''}
        autoComplete="off"
        hint={help.options}
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
      {/* FormActions' buttons, with Test beside them. */}
      <div className="actions">
        <button type="submit">{editing ? 'Save share' : 'Create share'}</button>
        <button type="button" className="secondary" onClick={runTest}>
          Test before saving
        </button>
        {editing && (
          <button type="button" className="secondary" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
      {testRun?.note && (
        <p className="hint" role="note">
          {testRun.note}
        </p>
      )}
      {test.tracked && testRun && <JobProgress tracked={test.tracked} subject={testRun.subject} onDismiss={closeTest} />}
    </form>
  );
}
