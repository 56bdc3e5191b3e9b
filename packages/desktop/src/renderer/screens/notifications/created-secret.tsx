import { useEffect, useRef } from 'react';
import { CopyButton } from '../../ui/copy-button.js';

const secretId = 'created-webhook-secret';

/**
 * A new webhook's signing secret, in the one answer that carries it (docs/decisions/167-notification-channel-secrets.md):
 * held in the screen's state only, gone when the screen is left or Done is pressed.
 */
export function CreatedSecret({ name, secret, onDone }: { name: string; secret: string; onDone: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="created-key" aria-labelledby="created-secret-heading">
      <h2 id="created-secret-heading" ref={heading} tabIndex={-1}>
        Webhook {name} created
      </h2>
      <p className="warning">
        <strong>Copy its signing secret now: you will not see it again.</strong> The receiver checks each request&apos;s <code>webhook-signature</code> with it
        (Standard Webhooks). To change it, create another channel and delete this one.
      </p>
      <code className="secret" id={secretId}>
        {secret}
      </code>
      <div className="actions">
        <CopyButton text={secret} targetId={secretId} label={`the signing secret of ${name}`} />
        <button type="button" className="secondary" onClick={onDone}>
          Done
        </button>
      </div>
    </section>
  );
}
