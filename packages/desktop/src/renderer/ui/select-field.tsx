import type { SelectHTMLAttributes } from 'react';
import { FieldFrame, type FieldFrameProps } from './form-field.js';

interface SelectFieldProps extends FieldFrameProps, Omit<SelectHTMLAttributes<HTMLSelectElement>, 'name' | 'form'> {
  options: ReadonlyArray<readonly [value: string, label: string]>;
}

/** Field's twin for a choice: a select in the same frame (label, hint, core messages). */
export function SelectField({ form, name, label, errors, options, hint, ...select }: SelectFieldProps) {
  return (
    <FieldFrame form={form} name={name} label={label} errors={errors} hint={hint}>
      {(control) => (
        <select {...control} {...select}>
          {options.map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
      )}
    </FieldFrame>
  );
}
