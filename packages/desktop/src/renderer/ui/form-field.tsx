import type { InputHTMLAttributes, ReactNode } from 'react';

/** Where a form's field errors come from: describeError's `fields`, keyed by field name. */
export type FieldErrors = Record<string, string[]> | undefined;

interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'name'> {
  /** The form's id prefix: error ids are `${form}-${name}-error`. */
  form: string;
  name: string;
  label: string;
  errors: FieldErrors;
  hint?: ReactNode;
}

/** A labelled input whose core validation messages sit under it and are tied to it for screen readers. */
export function Field({ form, name, label, errors, hint, ...input }: FieldProps) {
  const messages = errors?.[name];
  const errorId = `${form}-${name}-error`;
  const hintId = `${form}-${name}-hint`;
  const describedBy = [messages ? errorId : '', hint ? hintId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <label>
      {label}
      <input name={name} aria-invalid={messages ? true : undefined} aria-describedby={describedBy} {...input} />
      {hint && (
        <span id={hintId} className="hint">
          {hint}
        </span>
      )}
      {messages && (
        <span id={errorId} className="error">
          {messages.join('; ')}
        </span>
      )}
    </label>
  );
}

/** The error of a whole form, when no field carries it. */
export function FormError({ error }: { error: { message: string; fields: Record<string, string[]> } | null }) {
  if (!error || Object.keys(error.fields).length > 0) return null;
  return (
    <p role="alert" className="error">
      {error.message}
    </p>
  );
}
