import { useState, type FormEvent } from 'react';
import { api, describeError } from './trpc-client.js';

export function SignIn({ onSignedIn, notice = null }: { onSignedIn: (user: { username: string; admin: boolean }) => void; notice?: string | null }) {
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    try {
      onSignedIn(await api.auth.signIn.mutate({ username: String(form.get('username')), password: String(form.get('password')) }));
    } catch (caught) {
      setError(describeError(caught).message);
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
      <form onSubmit={(event) => void submit(event)} aria-describedby={error ? 'sign-in-error' : undefined}>
        <label>
          User name
          <input name="username" autoComplete="username" required />
        </label>
        <label>
          Password
          <input name="password" type="password" autoComplete="current-password" required />
        </label>
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
