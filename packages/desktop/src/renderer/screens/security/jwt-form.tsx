import { useState, type FormEvent } from 'react';
import { api, type Outputs } from '../../trpc-client.js';
import { Field } from '../../ui/form-field.js';
import { formProblem, type FormProblem } from '../../ui/form-problem.js';
import { ProblemAlert } from '../../ui/problem-alert.js';

type Settings = Outputs['settings']['show'];

const form = 'jwt';
const formFields = ['jwt_enabled', 'jwt_ttl_seconds'];

/** JWT mode and the tokens' lifetime: the two JWT fields of the server settings. */
export function JwtForm({ settings }: { settings: Settings }) {
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const [saved, setSaved] = useState<Settings | null>(null);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    setSaved(null);
    try {
      const next = await api.settings.update.mutate({ jwt_enabled: data.get('jwt_enabled') !== null, jwt_ttl_seconds: Number(data.get('jwt_ttl_seconds')) });
      setProblem(null);
      setSaved(next);
    } catch (caught) {
      setProblem(formProblem(caught, formFields));
    }
  };
  return (
    <form className="admin-form" aria-label="JWT mode" onSubmit={(event) => void submit(event)} onChange={() => setSaved(null)} noValidate>
      <label className="inline">
        <input type="checkbox" name="jwt_enabled" defaultChecked={settings.jwt_enabled} aria-describedby="jwt-explained" />
        JWT mode: issue and accept signed tokens
      </label>
      <Field
        form={form}
        name="jwt_ttl_seconds"
        label="Token lifetime (seconds)"
        type="number"
        inputMode="numeric"
        defaultValue={settings.jwt_ttl_seconds}
        errors={problem?.fields}
        hint="How long a token works after login; 3600 is one hour."
      />
      <ProblemAlert problem={problem} />
      <div className="actions">
        <button type="submit">Save JWT mode</button>
        <span role="status" className="ok">
          {saved ? `Saved: JWT mode is ${saved.jwt_enabled ? 'on' : 'off'}.` : ''}
        </span>
      </div>
    </form>
  );
}
