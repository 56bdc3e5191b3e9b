import { TRPCClientError } from '@trpc/client';
import { describeError } from '../trpc-client.js';

/** A failed save as a form shows it: messages under the fields it has, the rest above the button. */
export interface FormProblem {
  /** Messages by the form's own field names. */
  fields: Record<string, string[]>;
  /** What no field of the form carries (a refusal, a conflict, a field the form lacks). */
  general: string[];
}

/** Sorts the core's messages onto the form's own fields; the rest (and a bare failure) go above the button. */
export function formProblem(error: unknown, formFields: readonly string[]): FormProblem {
  const described = describeError(error);
  const problem: FormProblem = { fields: {}, general: [...described.general] };
  for (const [field, lines] of Object.entries(described.fields)) {
    if (formFields.includes(field)) problem.fields[field] = lines;
    else problem.general.push(...lines);
  }
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
