import { useState } from 'react';

/**
 * Copies a text shown elsewhere on the page (the element `targetId`). Where the clipboard is
 * refused (the app grants the page no permissions), that element's text is selected instead, for Ctrl+C.
 */
export function CopyButton({ text, targetId, label }: { text: string; targetId: string; label: string }) {
  const [outcome, setOutcome] = useState<'copied' | 'selected' | null>(null);
  const selectTarget = () => {
    const target = document.getElementById(targetId);
    const selection = globalThis.getSelection();
    if (!target || !selection) return;
    const range = document.createRange();
    range.selectNodeContents(target);
    selection.removeAllRanges();
    selection.addRange(range);
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setOutcome('copied');
    } catch {
      selectTarget();
      setOutcome('selected');
    }
  };
  return (
    <>
      <button type="button" className="secondary copy-button" aria-label={`Copy ${label}`} onClick={() => void copy()}>
        Copy
      </button>
      <span role="status" className="hint">
        {outcome === 'copied' && 'Copied.'}
        {outcome === 'selected' && 'Selected: press Ctrl+C to copy.'}
      </span>
    </>
  );
}
