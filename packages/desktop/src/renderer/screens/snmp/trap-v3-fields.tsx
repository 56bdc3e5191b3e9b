import { useState } from 'react';
import type { AuthProtocol, PrivProtocol, SecurityLevel } from '@dms/core';
import { Field, FieldFrame, type FieldErrors } from '../../ui/form-field.js';
import { SecretField } from '../../ui/secret-field.js';
import { authProtocolChoices, privProtocolChoices, securityLevelChoices } from '../../labels/snmp-choices.js';

/** What a stored target holds of the v3 fields (the passphrases only where the caller may read them). */
export interface TrapV3Values {
  security_name?: string | null;
  security_level?: SecurityLevel | null;
  auth_protocol?: string | null;
  auth_passphrase?: string | null;
  priv_protocol?: string | null;
  priv_passphrase?: string | null;
}

/** The v3 fields by their API names, with the labels the form shows them under (its messages name them so). */
export const trapV3FieldLabels = {
  security_name: 'Security name',
  security_level: 'Security level',
  auth_protocol: 'Authentication protocol',
  auth_passphrase: 'Authentication passphrase',
  priv_protocol: 'Privacy protocol',
  priv_passphrase: 'Privacy passphrase',
} as const;

function Choice({
  form,
  name,
  label,
  errors,
  choices,
  defaultValue,
  onChange,
}: {
  form: string;
  name: string;
  label: string;
  errors: FieldErrors;
  choices: ReadonlyArray<{ value: string; label: string }>;
  defaultValue: string;
  onChange?: (value: string) => void;
}) {
  return (
    <FieldFrame form={form} name={name} label={label} errors={errors}>
      {(control) => (
        <select {...control} defaultValue={defaultValue} onChange={onChange && ((event) => onChange(event.target.value))}>
          {choices.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
      )}
    </FieldFrame>
  );
}

/** The two halves a security level turns on (RFC 3414): authentication, then privacy, each a protocol and its passphrase. */
const halves = {
  auth: { label: 'Authentication', choices: authProtocolChoices, defaultProtocol: 'SHA-256' },
  priv: { label: 'Privacy', choices: privProtocolChoices, defaultProtocol: 'AES-128' },
} as const;

function ProtocolAndPassphrase({
  form,
  half,
  values,
  errors,
}: {
  form: string;
  half: keyof typeof halves;
  values: TrapV3Values | undefined;
  errors: FieldErrors;
}) {
  const { label, choices, defaultProtocol } = halves[half];
  return (
    <>
      <Choice
        form={form}
        name={`${half}_protocol`}
        label={`${label} protocol`}
        errors={errors}
        choices={choices}
        defaultValue={values?.[`${half}_protocol`] ?? defaultProtocol}
      />
      <SecretField
        form={form}
        name={`${half}_passphrase`}
        label={`${label} passphrase`}
        errors={errors}
        defaultValue={values?.[`${half}_passphrase`] ?? ''}
        hint="At least 8 characters."
      />
    </>
  );
}

/**
 * A v3 target's user (RFC 3414 USM): its name, level, and the protocols and passphrases the level
 * uses, the others hidden. Passphrases: 8 characters or more; snmptrapd needs the same ones in its
 * `createUser -e <dms engine id>` line (traps) or `createUser` line (informs).
 */
export function TrapV3Fields({ form, values, errors }: { form: string; values: TrapV3Values | undefined; errors: FieldErrors }) {
  const [level, setLevel] = useState<string>(values?.security_level ?? 'authPriv');
  const auth = level !== 'noAuthNoPriv';
  const priv = level === 'authPriv';
  return (
    <fieldset className="trap-v3">
      <legend>SNMPv3 user</legend>
      <Field
        form={form}
        name="security_name"
        label="Security name"
        errors={errors}
        defaultValue={values?.security_name ?? ''}
        hint="The USM user name the manager knows."
        autoComplete="off"
      />
      <Choice
        form={form}
        name="security_level"
        label="Security level"
        errors={errors}
        choices={securityLevelChoices}
        defaultValue={level}
        onChange={setLevel}
      />
      {auth && <ProtocolAndPassphrase form={form} half="auth" values={values} errors={errors} />}
      {priv && <ProtocolAndPassphrase form={form} half="priv" values={values} errors={errors} />}
    </fieldset>
  );
}

/** The v3 fields of a submitted form; a passphrase left as it was is not sent (it would be recorded as changed). */
export function trapV3Body(data: FormData, stored: TrapV3Values | undefined) {
  const text = (name: string) => (data.has(name) ? String(data.get(name)) : null);
  const level = (text('security_level') ?? 'authPriv') as SecurityLevel;
  const passphrase = (name: 'auth_passphrase' | 'priv_passphrase') => {
    const value = text(name);
    if (value === null) return {};
    if (stored && value === (stored[name] ?? '')) return {};
    return { [name]: value === '' ? null : value };
  };
  return {
    security_name: (text('security_name') ?? '').trim() || null,
    security_level: level,
    // The selects offer only the allowed values; the core validates what arrives all the same.
    auth_protocol: level === 'noAuthNoPriv' ? null : (text('auth_protocol') as AuthProtocol | null),
    priv_protocol: level === 'authPriv' ? (text('priv_protocol') as PrivProtocol | null) : null,
    ...(level === 'noAuthNoPriv' ? { auth_passphrase: null } : passphrase('auth_passphrase')),
    ...(level === 'authPriv' ? passphrase('priv_passphrase') : { priv_passphrase: null }),
  };
}
