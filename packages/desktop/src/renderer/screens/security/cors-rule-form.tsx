import { useState, type FormEvent } from 'react';
import { api, type Outputs } from '../../trpc-client.js';
import { Field } from '../../ui/form-field.js';
import { corsMethodChoices, type CorsMethod } from './cors-methods.js';
import { formProblem, type FormProblem } from '../../ui/form-problem.js';
import { FormHeading } from '../../ui/form-heading.js';
import { FieldMessages, ProblemAlert } from '../../ui/problem-alert.js';
import { FormActions } from '../../ui/form-actions.js';

export type CorsRule = Outputs['corsRules']['list']['cors_rules'][number];

const formFields = ['origins', 'path', 'methods'];

/** One origin per line (commas work too), blanks dropped: the core checks each entry. */
function originsOf(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/** Creates a cross-origin rule or edits one: origins, a path pattern and methods. */
export function CorsRuleForm({ rule, onSaved, onCancel }: { rule?: CorsRule; onSaved: () => void; onCancel?: () => void }) {
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const form = rule ? `cors-${rule.id}` : 'cors-new';
  const ids = { origins: `${form}-origins`, originsHint: `${form}-origins-hint`, originsError: `${form}-origins-error`, methodsError: `${form}-methods-error` };
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const body = {
      origins: originsOf(String(data.get('origins') ?? '')),
      path: String(data.get('path') ?? '').trim(),
      methods: data.getAll('methods').map(String) as CorsMethod[],
    };
    try {
      if (rule) await api.corsRules.update.mutate({ corsRule: rule.id, body });
      else await api.corsRules.create.mutate(body);
      setProblem(null);
      onSaved();
    } catch (caught) {
      setProblem(formProblem(caught, formFields));
    }
  };
  const headingId = `${form}-heading`;
  const originErrors = problem?.fields['origins'];
  const methodErrors = problem?.fields['methods'];
  return (
    <form className="admin-form" aria-labelledby={headingId} onSubmit={(event) => void submit(event)} noValidate>
      <FormHeading id={headingId} focusOnMount={rule !== undefined}>
        {rule ? `Edit rule for ${rule.origins.join(', ')}` : 'New cross-origin rule'}
      </FormHeading>
      <label htmlFor={ids.origins}>Origins</label>
      <textarea
        id={ids.origins}
        name="origins"
        rows={3}
        defaultValue={rule?.origins.join('\n')}
        aria-invalid={originErrors ? true : undefined}
        aria-describedby={[ids.originsHint, originErrors ? ids.originsError : ''].filter(Boolean).join(' ')}
        spellCheck={false}
      />
      <span id={ids.originsHint} className="hint">
        One per line: an origin such as https://app.example.com, a DNS name (any scheme and port), or * for any origin.
      </span>
      <FieldMessages id={ids.originsError} messages={originErrors} />
      <Field
        form={form}
        name="path"
        label="Path"
        errors={problem?.fields}
        defaultValue={rule?.path ?? '*'}
        hint="* for every path, or a path under the API with * wildcards, e.g. /api/v2/nas_shares*."
        autoComplete="off"
      />
      <fieldset aria-describedby={methodErrors ? ids.methodsError : undefined}>
        <legend>Methods</legend>
        <div className="checkbox-row">
          {corsMethodChoices.map((method) => (
            <label key={method} className="inline">
              <input type="checkbox" name="methods" value={method} defaultChecked={rule ? rule.methods.includes(method) : method === 'GET'} />
              {method}
            </label>
          ))}
        </div>
        <FieldMessages id={ids.methodsError} messages={methodErrors} />
      </fieldset>
      <ProblemAlert problem={problem} />
      <FormActions editing={rule !== undefined} create="Add rule" save="Save rule" onCancel={onCancel} />
    </form>
  );
}
