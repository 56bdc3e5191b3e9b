import { useState, type FormEvent } from 'react';
import { api, describeError, type Outputs } from '../../trpc-client.js';
import { useLoad } from '../../ui/use-load.js';
import { ErrorAlert } from '../../ui/error-alert.js';

type Enrollment = Outputs['account']['totpEnroll'];

/** The code field of the confirm and turn-off forms: six digits, typed or pasted. */
function CodeField({ label, name }: { label: string; name: string }) {
  return (
    <label>
      {label}
      <input name={name} inputMode="numeric" autoComplete="one-time-code" maxLength={32} />
    </label>
  );
}

/** The recovery codes of a confirm, shown this once. */
function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <div role="status" aria-label="Recovery codes">
      <p>Two-factor sign-in is on. Keep these recovery codes somewhere safe: each signs you in once instead of a code. They are shown only now.</p>
      <ul className="recovery-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Scan the QR code (or type the secret), then confirm with the app's code. */
function EnrollForm({ enrollment, onConfirmed }: { enrollment: Enrollment; onConfirmed: (codes: string[]) => void }) {
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get('totp_code') ?? '').trim();
    try {
      onConfirmed((await api.account.totpConfirm.mutate({ totp_code: code })).recovery_codes);
    } catch (caught) {
      setError(describeError(caught).message);
    }
  };
  return (
    <form onSubmit={(event) => void submit(event)} aria-label="Confirm two-factor sign-in">
      <p>Scan this QR code with your authenticator app, or type the secret into it, then enter the code it shows.</p>
      {/* An SVG drawn by the main process from the otpauth:// URI; it holds no script. */}
      <div className="totp-qr" role="img" aria-label="QR code of the authenticator secret" dangerouslySetInnerHTML={{ __html: enrollment.qr_svg }} />
      <p>
        Secret: <code aria-label="Authenticator secret">{enrollment.secret}</code>
      </p>
      <CodeField label="Code from your app" name="totp_code" />
      <ErrorAlert message={error} />
      <button type="submit">Turn on</button>
    </form>
  );
}

/** Turning off asks for a code (or a recovery code): a borrowed console alone cannot do it. */
function DisableForm({ onDisabled }: { onDisabled: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get('code') ?? '').trim();
    try {
      await api.account.totpDisable.mutate(/^\d{6}$/.test(code) ? { totp_code: code } : { recovery_code: code });
      onDisabled();
    } catch (caught) {
      setError(describeError(caught).message);
    }
  };
  return (
    <form onSubmit={(event) => void submit(event)} aria-label="Turn off two-factor sign-in">
      <CodeField label="Code from your app, or a recovery code" name="code" />
      <ErrorAlert message={error} />
      <button type="submit">Turn off</button>
    </form>
  );
}

/** "Two-factor": TOTP for the signed-in user (docs/decisions/178-totp-second-factor.md). */
export function TwoFactorSection() {
  const status = useLoad(() => api.account.totpStatus.query());
  const [enrollment, setEnrollment] = useState<Enrollment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const enroll = async () => {
    setError(null);
    try {
      setEnrollment(await api.account.totpEnroll.mutate());
    } catch (caught) {
      setError(describeError(caught).message);
    }
  };
  const enabled = status.data?.enabled === true;
  return (
    <section aria-labelledby="two-factor-heading">
      <h2 id="two-factor-heading">Two-factor</h2>
      <ErrorAlert message={status.error ?? error} />
      {codes && <RecoveryCodes codes={codes} />}
      {status.data && (
        <p role="status">
          {enabled ? `On: sign-in asks for a code. ${status.data.recovery_codes_left} recovery codes left.` : 'Off: sign-in asks for your password only.'}
        </p>
      )}
      {status.data && !enabled && !enrollment && (
        <button type="button" onClick={() => void enroll()}>
          Set up two-factor sign-in
        </button>
      )}
      {!enabled && enrollment && (
        <EnrollForm
          enrollment={enrollment}
          onConfirmed={(recovery) => {
            setEnrollment(null);
            setCodes(recovery);
            status.reload();
          }}
        />
      )}
      {enabled && (
        <DisableForm
          onDisabled={() => {
            setCodes(null);
            status.reload();
          }}
        />
      )}
    </section>
  );
}
