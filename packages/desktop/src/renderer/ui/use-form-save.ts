import { useEffect, useRef, useState, type FormEvent } from 'react';
import { describeError, type DescribedError } from '../trpc-client.js';
import { focusFirstInvalid } from './focus-first-invalid.js';

/**
 * A form's submit handler that saves one at a time (a submit while a save runs is dropped) and
 * keeps the last failure as describeError reads it, for FormError and the fields' messages.
 * `save` reads the form, calls the main process and reports the result; it throws on failure.
 * A failure moves the keyboard to the first field it marks invalid.
 */
export function useFormSave(save: (data: FormData, form: HTMLFormElement) => Promise<void>) {
  const [error, setError] = useState<DescribedError | null>(null);
  const [saving, setSaving] = useState(false);
  const busy = useRef(false);
  const submitted = useRef<HTMLFormElement | null>(null);
  useEffect(() => {
    if (error) focusFirstInvalid(submitted.current);
  }, [error]);
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy.current) return;
    const form = event.currentTarget;
    submitted.current = form;
    const data = new FormData(form);
    busy.current = true;
    setSaving(true);
    try {
      await save(data, form);
      setError(null);
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      busy.current = false;
      setSaving(false);
    }
  };
  return { error, saving, onSubmit: (event: FormEvent<HTMLFormElement>) => void onSubmit(event) };
}
