import { useState, type FormEvent } from 'react';
import { api, describeError } from '../trpc-client.js';

const fields = [
  { name: 'name', label: 'Share name' },
  { name: 'path', label: 'Path' },
  { name: 'options', label: 'Mount options' },
] as const;

/** Creates a share; the core's field errors are shown under their fields. */
export function ShareForm({ nas, onCreated }: { nas: Array<{ id: number; name: string }>; onCreated: () => void }) {
  const [errors, setErrors] = useState<{ message: string; fields: Record<string, string[]> } | null>(null);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const value = (name: string) => String(form.get(name) ?? '');
    try {
      await api.shares.create.mutate({ nas: value('nas'), body: { name: value('name'), path: value('path'), ...(value('options') ? { options: value('options') } : {}) } });
      setErrors(null);
      formElement.reset();
      onCreated();
    } catch (caught) {
      setErrors(describeError(caught));
    }
  };
  return (
    <form className="share-form" onSubmit={(event) => void submit(event)}>
      <h3>New share</h3>
      <label>
        NAS
        <select name="nas">
          {nas.map((item) => (
            <option key={item.id} value={item.name}>
              {item.name}
            </option>
          ))}
        </select>
      </label>
      {fields.map((field) => {
        const messages = errors?.fields[field.name];
        const errorId = `share-${field.name}-error`;
        return (
          <label key={field.name}>
            {field.label}
            <input name={field.name} aria-invalid={messages ? true : undefined} aria-describedby={messages ? errorId : undefined} />
            {messages && (
              <span id={errorId} className="error">
                {messages.join('; ')}
              </span>
            )}
          </label>
        );
      })}
      {errors && Object.keys(errors.fields).length === 0 && (
        <p role="alert" className="error">
          {errors.message}
        </p>
      )}
      <button type="submit">Create share</button>
    </form>
  );
}
