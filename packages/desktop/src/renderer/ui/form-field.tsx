import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

/** Where a form's field errors come from: describeError's `fields`, keyed by field name. */
export type FieldErrors = Record<string, string[]> | undefined;

/** What a form control gets from its frame: its id, name and the ties to its hint and messages. */
export interface ControlProps {
  id: string;
  name: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

export interface FieldFrameProps {
  /** The form's id prefix: error ids are `${form}-${name}-error`. */
  form: string;
  name: string;
  label: string;
  errors: FieldErrors;
  hint?: ReactNode;
}

/**
 * A labelled control whose core validation messages sit under it. The hint and the messages are
 * outside the <label>, tied to the control by aria-describedby: its accessible name stays the label.
 */
export function FieldFrame({ form, name, label, errors, hint, children }: FieldFrameProps & { children: (control: ControlProps) => ReactNode }) {
  const id = useId();
  const messages = errors?.[name];
  const errorId = `${form}-${name}-error`;
  const hintId = `${form}-${name}-hint`;
  const describedBy = [messages ? errorId : '', hint ? hintId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children({ id, name, 'aria-invalid': messages ? true : undefined, 'aria-describedby': describedBy })}
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
    </div>
  );
}

/** A text (or number, date …) input in a FieldFrame. */
export function Field({ form, name, label, errors, hint, ...input }: FieldFrameProps & Omit<InputHTMLAttributes<HTMLInputElement>, 'name' | 'form'>) {
  return (
    <FieldFrame form={form} name={name} label={label} errors={errors} hint={hint}>
      {(control) => <input {...control} {...input} />}
    </FieldFrame>
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
