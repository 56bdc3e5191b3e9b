import type { FormProblem } from './form-problem.js';

/** The part of a failed save that no field of the form shows, announced at once. */
export function ProblemAlert({ problem }: { problem: FormProblem | null }) {
  if (!problem || problem.general.length === 0) return null;
  return (
    <p role="alert" className="error">
      {problem.general.join('; ')}
    </p>
  );
}

/** The core's messages for one field that is not a plain input (a group of checkboxes, a list). */
export function FieldMessages({ id, messages }: { id: string; messages: string[] | undefined }) {
  if (!messages) return null;
  return (
    <span id={id} className="error">
      {messages.join('; ')}
    </span>
  );
}
