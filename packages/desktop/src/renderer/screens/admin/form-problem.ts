import { TRPCClientError } from '@trpc/client';
import { describeError } from '../../trpc-client.js';

/** A failed save as a form shows it: messages under the fields it has, the rest above the button. */
export interface FormProblem {
  /** Messages by the form's own field names. */
  fields: Record<string, string[]>;
  /** What no field of the form carries (a refusal, a conflict, a field the form lacks). */
  general: string[];
}

interface ErrorData {
  details?: Record<string, unknown>;
  messages?: string[];
}

/**
 * Sorts the core's messages onto the form's fields. Unlike describeError, a message about an
 * item of a list field (`origins[1] must be …`, detail key `origins.1`) goes to the list's field.
 */
export function formProblem(error: unknown, formFields: readonly string[]): FormProblem {
  const data = error instanceof TRPCClientError ? (error.data as ErrorData | undefined) : undefined;
  const detailFields = new Set(Object.keys(data?.details ?? {}).map((key) => key.split('.')[0] ?? key));
  const problem: FormProblem = { fields: {}, general: [] };
  for (const line of data?.messages ?? []) {
    const field = /^[A-Za-z_]+/.exec(line)?.[0];
    if (field && detailFields.has(field) && formFields.includes(field)) (problem.fields[field] ??= []).push(line);
    else problem.general.push(line);
  }
  if (Object.keys(problem.fields).length === 0 && problem.general.length === 0) problem.general.push(describeError(error).message);
  return problem;
}

/** Whether the core refused the signed-in user (FORBIDDEN), as it does a non-admin on admin-only resources. */
export function isRefusal(error: unknown): boolean {
  return error instanceof TRPCClientError && (error.data as { code?: string } | undefined)?.code === 'FORBIDDEN';
}
