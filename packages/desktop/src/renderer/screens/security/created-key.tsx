import { useEffect, useRef, useState } from 'react';
import type { CreatedApiKey } from './api-key-form.js';

type CopyState = 'idle' | 'copied' | 'failed';

/**
 * The key itself, in the one answer that carries it: the service keeps only a hash, so this is
 * the only time it can be shown. It lives in this component's state and goes when the screen does.
 */
export function CreatedKey({ created, onDone }: { created: CreatedApiKey; onDone: () => void }) {
  const [copy, setCopy] = useState<CopyState>('idle');
  const secret = useRef<HTMLElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const copyKey = async () => {
    try {
      await navigator.clipboard.writeText(created.key);
      setCopy('copied');
    } catch {
      // No clipboard access: select the key so Ctrl+C (or ⌘C) copies it.
      const range = document.createRange();
      if (secret.current) range.selectNodeContents(secret.current);
      getSelection()?.removeAllRanges();
      getSelection()?.addRange(range);
      setCopy('failed');
    }
  };
  return (
    <section className="created-key" aria-labelledby="created-key-heading">
      <h2 id="created-key-heading" ref={heading} tabIndex={-1}>
        API key {created.name} created
      </h2>
      <p className="warning">
        <strong>Copy the key now: you will not see it again.</strong> The service keeps only a hash of it; the list below shows it masked.
      </p>
      <code className="secret" ref={secret}>
        {created.key}
      </code>
      <div className="actions">
        <button type="button" onClick={() => void copyKey()}>
          Copy
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          Done
        </button>
        <span role="status" className={copy === 'failed' ? 'error' : 'ok'}>
          {copy === 'copied' && 'Copied'}
          {copy === 'failed' && 'The clipboard is not available: the key is selected, press Ctrl+C to copy it.'}
        </span>
      </div>
    </section>
  );
}
