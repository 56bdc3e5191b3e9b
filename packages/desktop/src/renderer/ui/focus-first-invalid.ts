import { useEffect, useRef } from 'react';

/** Moves the keyboard to the first control of `form` marked aria-invalid, in the form's order; false when none is. */
export function focusFirstInvalid(form: HTMLFormElement | null): boolean {
  const field = form?.querySelector<HTMLElement>('[aria-invalid="true"]');
  field?.focus();
  return field !== null && field !== undefined;
}

/**
 * A ref for a form whose failed submit leaves `problem` set: once the messages are rendered
 * under their fields, the keyboard lands on the first invalid one (a refusal with no field
 * leaves focus where it was; its alert is announced).
 */
export function useFocusFirstInvalid(problem: unknown) {
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (problem) focusFirstInvalid(form.current);
  }, [problem]);
  return form;
}
