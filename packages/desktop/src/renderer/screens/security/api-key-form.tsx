import { useState, type FormEvent } from 'react';
import { api, type Outputs } from '../../trpc-client.js';
import { Field } from '../../ui/form-field.js';
import { useLoad } from '../../ui/use-load.js';
import { formProblem, type FormProblem } from '../../ui/form-problem.js';
import { ProblemAlert } from '../../ui/problem-alert.js';
import { useFocusFirstInvalid } from '../../ui/focus-first-invalid.js';
import { ScopeGrid, type ScopeChoice } from './scope-grid.js';
import { SelectField } from '../../ui/select-field.js';
import { loadRoles, roleOptions } from '../system/role-choices.js';

export type CreatedApiKey = Outputs['apiKeys']['create'];

const form = 'api-key';
const formFields = ['name', 'api_key_scopes', 'role', 'expires_at'];

/** A key carries scopes ticked in the grid, or a role's (docs/api.md#roles): exactly one. */
type Grants = 'scopes' | 'role';

/** The end of the picked day in local time: a key "valid until the 31st" works all that day. */
function endOfDay(date: string): string | null {
  if (!date) return null;
  return new Date(`${date}T23:59:59.999`).toISOString();
}

/** Creates an API key: its name, its scopes from the grid or a role, and an optional expiry date. */
export function ApiKeyForm({ onCreated }: { onCreated: (key: CreatedApiKey) => void }) {
  const catalogue = useLoad(() => api.apiKeys.scopeCatalogue.query());
  const roles = useLoad(loadRoles);
  const [grants, setGrants] = useState<Grants>('scopes');
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
      const carried = grants === 'role' ? { role: String(data.get('role') ?? '') } : { api_key_scopes: scopes };
      const created = await api.apiKeys.create.mutate({
        name: String(data.get('name') ?? '').trim(),
        ...carried,
        expires_at: endOfDay(String(data.get('expires_at') ?? '')),
      });
      setProblem(null);
      setScopes([]);
      setGrants('scopes');
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
      <fieldset className="inline-choices">
        <legend>The key may do</legend>
        <label className="inline">
          <input type="radio" name="grants" value="scopes" checked={grants === 'scopes'} onChange={() => setGrants('scopes')} />
          What the scopes ticked below allow
        </label>
        <label className="inline">
          <input type="radio" name="grants" value="role" checked={grants === 'role'} onChange={() => setGrants('role')} disabled={!roles.data} />
          What a role allows, as the role is at each use
        </label>
      </fieldset>
      {grants === 'role' && roles.data ? (
        <SelectField
          form={form}
          name="role"
          label="Role"
          options={roleOptions(roles.data.roles)}
          defaultValue="viewer"
          errors={problem?.fields}
          hint="Never more than you may do yourself: the key is bounded by your own role at every request."
        />
      ) : (
        <ScopeGrid catalogue={catalogue.data} scopes={scopes} onChange={setScopes} messages={problem?.fields['api_key_scopes']} />
      )}
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
