import { useState } from 'react';
import { Field, type FieldErrors } from './form-field.js';

interface SecretFieldProps {
  form: string;
  name: string;
  label: string;
  errors: FieldErrors;
  defaultValue?: string;
  hint?: string;
}

/** A community string or password: hidden as it is typed, shown on request, never autocompleted. */
export function SecretField({ form, name, label, errors, defaultValue, hint }: SecretFieldProps) {
  const [shown, setShown] = useState(false);
  return (
    <div className="secret-field">
      <Field
        form={form}
        name={name}
        label={label}
        errors={errors}
        hint={hint}
        type={shown ? 'text' : 'password'}
        defaultValue={defaultValue}
        autoComplete="off"
        spellCheck={false}
      />
      <label className="inline">
        <input type="checkbox" checked={shown} onChange={(event) => setShown(event.target.checked)} />
        Show {label.toLowerCase()}
      </label>
    </div>
  );
}
