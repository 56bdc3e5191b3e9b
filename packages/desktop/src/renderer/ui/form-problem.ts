import { TRPCClientError } from '@trpc/client';
import { describeError } from '../trpc-client.js';

/** A failed save as a form shows it: messages under the fields it has, the rest above the button. */
export interface FormProblem {
  /** Messages by the form's own field names. */
  fields: Record<string, string[]>;
  /** What no field of the form carries (a refusal, a conflict, a field the form lacks). */
  general: string[];
}

/** A form's fields: their names, or their names with the labels the form shows them under. */
export type FormFields = readonly string[] | Readonly<Record<string, string>>;

/** `users[0].auth_passphrase is …`: a field of an item of a list the form edits one item of. */
const itemPrefix = /^[A-Za-z_]+\[\d+\]\./;

/** A message of the core's with the field it starts with named by its label, when the form has one for it. */
export function labelled(line: string, labels: Readonly<Record<string, string>>): string {
  const unprefixed = line.replace(itemPrefix, '');
  const field = /^[A-Za-z_]+/.exec(unprefixed)?.[0] ?? '';
  return labels[field] ? `${labels[field]}${unprefixed.slice(field.length)}` : line;
}

/**
 * Sorts the core's messages onto the form's own fields; the rest (and a bare failure) go above
 * the button. With labels, a message names a field as the form does ("Authentication passphrase
 * is too short"), not by its API name; a field of a list's item (`users[0].auth_passphrase`) is
 * the form's field of that name. `within` names an object whose fields the form shows as its
 * own (a notification channel's `settings`): `settings.url must be …` goes under the URL field.
 */
export function formProblem(error: unknown, formFields: FormFields, within?: string): FormProblem {
  const names: readonly string[] = Array.isArray(formFields) ? formFields : Object.keys(formFields);
  const labels: Readonly<Record<string, string>> = Array.isArray(formFields) ? {} : (formFields as Readonly<Record<string, string>>);
  const described = describeError(error);
  const problem: FormProblem = { fields: {}, general: [] };
  const place = (line: string) => {
    const inner = within !== undefined && line.startsWith(`${within}.`) ? line.slice(within.length + 1) : line;
    const unprefixed = inner.replace(itemPrefix, '');
    const field = /^[A-Za-z_]+/.exec(unprefixed)?.[0] ?? '';
    const worded = labelled(inner, labels);
    if (names.includes(field) && (unprefixed !== line || field in described.fields)) (problem.fields[field] ??= []).push(worded);
    else problem.general.push(worded);
  };
  for (const lines of Object.values(described.fields)) lines.forEach(place);
  described.general.forEach(place);
  if (Object.keys(problem.fields).length === 0 && problem.general.length === 0) problem.general.push(described.message);
  return problem;
}

/** Whether the core refused the change as it stands (CONFLICT), as it does deleting a NAS that still has shares. */
export function isConflict(error: unknown): boolean {
  return error instanceof TRPCClientError && (error.data as { code?: string } | undefined)?.code === 'CONFLICT';
}

/** Whether the core refused the signed-in user (FORBIDDEN), as it does a non-admin on admin-only resources. */
export function isRefusal(error: unknown): boolean {
  return error instanceof TRPCClientError && (error.data as { code?: string } | undefined)?.code === 'FORBIDDEN';
}
