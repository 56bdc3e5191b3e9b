import { useState, type FormEvent } from 'react';
import { api, type Outputs } from '../../trpc-client.js';
import { Field } from '../../ui/form-field.js';
import { useLoad } from '../../ui/use-load.js';
import { formProblem, type FormProblem } from '../../ui/form-problem.js';
import { ProblemAlert } from '../../ui/problem-alert.js';
import { useFocusFirstInvalid } from '../../ui/focus-first-invalid.js';
import { ScopeGrid, type ScopeChoice } from './scope-grid.js';

export type CreatedApiKey = Outputs['apiKeys']['create'];

const form = 'api-key';
const formFields = ['name', 'api_key_scopes', 'expires_at'];

/** The end of the picked day in local time: a key "valid until the 31st" works all that day. */
function endOfDay(date: string): string | null {
  if (!date) return null;
  return new Date(`${date}T23:59:59.999`).toISOString();
}

/** Creates an API key: its name, its scopes from the grid and an optional expiry date. */
export function ApiKeyForm({ onCreated }: { onCreated: (key: CreatedApiKey) => void }) {
  const catalogue = useLoad(() => api.apiKeys.scopeCatalogue.query());
  const [scopes, setScopes] = useState<ScopeChoice[]>([]);
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const formRef = useFocusFirstInvalid(problem);
  if (catalogue.error) {
    return (
      <p role="alert" className="error">
        {catalogue.error}
      </p>
    );
  }
  if (!catalogue.data) return <p className="hint">Loading the scopes…</p>;
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const element = event.currentTarget;
    const data = new FormData(element);
    try {
      const created = await api.apiKeys.create.mutate({
        name: String(data.get('name') ?? '').trim(),
        api_key_scopes: scopes,
        expires_at: endOfDay(String(data.get('expires_at') ?? '')),
      });
      setProblem(null);
      setScopes([]);
      element.reset();
      onCreated(created);
    } catch (caught) {
      setProblem(formProblem(caught, formFields));
    }
  };
  return (
    <form ref={formRef} className="admin-form" aria-labelledby="api-key-form-heading" onSubmit={(event) => void submit(event)} noValidate>
      <h2 id="api-key-form-heading">New API key</h2>
      <Field form={form} name="name" label="Name" errors={problem?.fields} hint="Who or what uses the key, e.g. backup-script." autoComplete="off" />
      <ScopeGrid catalogue={catalogue.data} scopes={scopes} onChange={setScopes} messages={problem?.fields['api_key_scopes']} />
      <Field
        form={form}
        name="expires_at"
        label="Expires (optional)"
        type="date"
        errors={problem?.fields}
        hint="The key stops working at the end of this day. Leave empty for a key that does not expire."
      />
      <ProblemAlert problem={problem} />
      <button type="submit">Create key</button>
    </form>
  );
}
