import { useRef, useState, type ReactNode } from 'react';
import { ErrorAlert } from './error-alert.js';

interface ConfirmButtonProps {
  /** The button's visible text ("Delete"). */
  label: string;
  /** Its accessible name, naming the thing ("Delete share projects"). */
  accessibleLabel: string;
  /** The question in the dialog ("Delete share projects? Its jobs are kept."). */
  question: string;
  onConfirm: () => Promise<void>;
  /** Where to go from a refusal (a link to what blocks it), shown under its message; nothing when it returns null. */
  refusalHelp?: (error: unknown) => ReactNode;
}

/** A destructive action behind a modal dialog (native <dialog>: focus trap and Escape for free). */
export function ConfirmButton({ label, accessibleLabel, question, onConfirm, refusalHelp }: ConfirmButtonProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [help, setHelp] = useState<ReactNode>(null);
  const confirm = async () => {
    try {
      await onConfirm();
      dialog.current?.close();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
      setHelp(refusalHelp?.(caught) ?? null);
    }
  };
  return (
    <>
      <button type="button" className="danger" aria-label={accessibleLabel} onClick={() => (setError(null), dialog.current?.showModal())}>
        {label}
      </button>
      <dialog ref={dialog} aria-label={accessibleLabel}>
        <p>{question}</p>
        <ErrorAlert message={error} />
        {error && help && <p>{help}</p>}
        <div className="actions">
          <button type="button" className="secondary" onClick={() => dialog.current?.close()} autoFocus>
            Cancel
          </button>
          <button type="button" className="danger" onClick={() => void confirm()}>
            {label}
          </button>
        </div>
      </dialog>
    </>
  );
}
