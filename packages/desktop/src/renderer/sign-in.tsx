import { useEffect, useRef, useState, type FormEvent, type RefObject } from 'react';
import { TRPCClientError } from '@trpc/client';
import { api, describeError } from './trpc-client.js';
import { focusFirstInvalid } from './ui/focus-first-invalid.js';
import { SingleSignOn } from './single-sign-on.js';
import type { ConsoleUser } from './screens/screen-props.js';

type Missing = Partial<Record<'username' | 'password', string>>;

/** What the form itself can tell before asking the core: an empty field, in the words an admin expects. */
function missingFields(username: string, password: string): Missing {
  return { ...(username.trim() ? {} : { username: 'Enter your user name' }), ...(password ? {} : { password: 'Enter your password' }) };
}

interface SignInFieldProps {
  label: string;
  name: 'username' | 'password';
  type?: 'password';
  autoComplete: string;
  /** What is missing, shown under the field and read with it. */
  message: string | undefined;
  inputRef?: RefObject<HTMLInputElement | null>;
}

function SignInField({ label, name, type, autoComplete, message, inputRef }: SignInFieldProps) {
  const errorId = `sign-in-${name}-error`;
  return (
    <>
      <label>
        {label}
        <input
          ref={inputRef}
          name={name}
          type={type}
          autoComplete={autoComplete}
          required
          aria-invalid={message ? true : undefined}
          aria-describedby={message ? errorId : undefined}
        />
      </label>
      {message && (
        <span id={errorId} className="error">
          {message}
        </span>
      )}
    </>
  );
}

/** The core's prompt for a second factor: the password was right, a code is needed (docs/decisions/178-totp-second-factor.md). */
function asksForCode(error: unknown): boolean {
  const details = error instanceof TRPCClientError ? (error.data as { details?: Record<string, Array<{ error: string }>> } | undefined)?.details : undefined;
  return details?.['totp_code']?.[0]?.error === 'blank';
}

/** The code of the authenticator app, or a recovery code, once the core asked for one. */
function SecondFactorField({ recovery, onSwitch }: { recovery: boolean; onSwitch: () => void }) {
  return (
    <>
      <label>
        {recovery ? 'Recovery code' : 'Code from your authenticator app'}
        <input name="second_factor" inputMode={recovery ? 'text' : 'numeric'} autoComplete="one-time-code" required />
      </label>
      <button type="button" className="link" onClick={onSwitch}>
        {recovery ? 'Use a code from the app instead' : 'Use a recovery code instead'}
      </button>
    </>
  );
}

export function SignIn({ onSignedIn, notice = null }: { onSignedIn: (user: ConsoleUser) => void; notice?: string | null }) {
  const [error, setError] = useState<string | null>(null);
  const [missing, setMissing] = useState<Missing>({});
  // Bumped by each failed submit: focus moves again even when the messages are the same.
  const [failures, setFailures] = useState(0);
  const [codeAsked, setCodeAsked] = useState(false);
  const [recovery, setRecovery] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const username = useRef<HTMLInputElement>(null);
  useEffect(() => username.current?.focus(), []);
  useEffect(() => {
    if (failures === 0) return;
    // A refusal names no field: the keyboard goes back to the user name, its text selected to retype.
    const code = form.current?.elements.namedItem('second_factor');
    // Asked for a code: the keyboard goes to it, the name and password being right.
    if (code instanceof HTMLInputElement) code.select();
    else if (!focusFirstInvalid(form.current)) username.current?.select();
  }, [failures]);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const secondFactor = String(data.get('second_factor') ?? '').trim();
    const factor = !codeAsked || !secondFactor ? {} : recovery ? { recovery_code: secondFactor } : { totp_code: secondFactor };
    const credentials = { username: String(data.get('username') ?? ''), password: String(data.get('password') ?? ''), ...factor };
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
      if (asksForCode(caught)) setCodeAsked(true);
      setError(asksForCode(caught) && !codeAsked ? 'Enter the code your authenticator app shows.' : describeError(caught).message);
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
        <SignInField label="User name" name="username" autoComplete="username" message={missing.username} inputRef={username} />
        <SignInField label="Password" name="password" type="password" autoComplete="current-password" message={missing.password} />
        {codeAsked && <SecondFactorField recovery={recovery} onSwitch={() => setRecovery((value) => !value)} />}
        {error && (
          <p id="sign-in-error" role="alert" className="error">
            {error}
          </p>
        )}
        <button type="submit">Sign in</button>
      </form>
      <SingleSignOn onSignedIn={onSignedIn} />
    </main>
  );
}
