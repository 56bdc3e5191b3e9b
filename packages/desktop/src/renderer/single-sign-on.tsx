import { useState } from 'react';
import { api, describeError } from './trpc-client.js';
import { useLoad } from './ui/use-load.js';
import type { ConsoleUser } from './screens/screen-props.js';

type SignedIn = ConsoleUser;

/**
 * "Sign in with <label>" under the password form, when an admin turned single sign-on on: the
 * main process opens the provider in the system browser and resolves once it came back
 * (docs/decisions/177-oidc-sign-in.md).
 */
export function SingleSignOn({ onSignedIn }: { onSignedIn: (user: SignedIn) => void }) {
  const offered = useLoad(() => api.auth.singleSignOn.query());
  const [waiting, setWaiting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!offered.data?.enabled) return null;
  const start = async () => {
    setWaiting(true);
    setError(null);
    try {
      onSignedIn(await api.auth.signInWithProvider.mutate());
    } catch (caught) {
      setError(describeError(caught).message);
    } finally {
      setWaiting(false);
    }
  };
  return (
    <section aria-label="Single sign-on" className="single-sign-on">
      <button type="button" onClick={() => void start()} disabled={waiting} aria-describedby={error ? 'single-sign-on-error' : undefined}>
        Sign in with {offered.data.label}
      </button>
      {waiting && <p role="status">Finish signing in in your browser…</p>}
      {error && (
        <p id="single-sign-on-error" role="alert" className="error">
          {error}
        </p>
      )}
    </section>
  );
}
