import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api, describeError } from './trpc-client.js';
import { focusFirstInvalid } from './ui/focus-first-invalid.js';

type Missing = Partial<Record<'username' | 'password', string>>;

/** What the form itself can tell before asking the core: an empty field, in the words an admin expects. */
function missingFields(username: string, password: string): Missing {
  return { ...(username.trim() ? {} : { username: 'Enter your user name' }), ...(password ? {} : { password: 'Enter your password' }) };
}

export function SignIn({ onSignedIn, notice = null }: { onSignedIn: (user: { username: string; admin: boolean }) => void; notice?: string | null }) {
  const [error, setError] = useState<string | null>(null);
  const [missing, setMissing] = useState<Missing>({});
  // Bumped by each failed submit: focus moves again even when the messages are the same.
  const [failures, setFailures] = useState(0);
  const form = useRef<HTMLFormElement>(null);
  const username = useRef<HTMLInputElement>(null);
  useEffect(() => username.current?.focus(), []);
  useEffect(() => {
    if (failures === 0) return;
    // A refusal names no field: the keyboard goes back to the user name, its text selected to retype.
    if (!focusFirstInvalid(form.current)) username.current?.select();
  }, [failures]);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const credentials = { username: String(data.get('username') ?? ''), password: String(data.get('password') ?? '') };
    const empty = missingFields(credentials.username, credentials.password);
    setMissing(empty);
    if (Object.keys(empty).length > 0) {
      setError(null);
      setFailures((count) => count + 1);
      return;
    }
    try {
      onSignedIn(await api.auth.signIn.mutate(credentials));
    } catch (caught) {
      setError(describeError(caught).message);
      setFailures((count) => count + 1);
    }
  };
  return (
    <main className="sign-in">
      <h1>dms console</h1>
      {notice && (
        <p role="status" className="notice">
          {notice}
        </p>
      )}
      <form ref={form} onSubmit={(event) => void submit(event)} aria-describedby={error ? 'sign-in-error' : undefined} noValidate>
        <label>
          User name
          <input
            ref={username}
            name="username"
            autoComplete="username"
            required
            aria-invalid={missing.username ? true : undefined}
            aria-describedby={missing.username ? 'sign-in-username-error' : undefined}
          />
        </label>
        {missing.username && (
          <span id="sign-in-username-error" className="error">
            {missing.username}
          </span>
        )}
        <label>
          Password
          <input
            name="password"
            type="password"
            autoComplete="current-password"
            required
            aria-invalid={missing.password ? true : undefined}
            aria-describedby={missing.password ? 'sign-in-password-error' : undefined}
          />
        </label>
        {missing.password && (
          <span id="sign-in-password-error" className="error">
            {missing.password}
          </span>
        )}
        {error && (
          <p id="sign-in-error" role="alert" className="error">
            {error}
          </p>
        )}
        <button type="submit">Sign in</button>
      </form>
    </main>
  );
}
