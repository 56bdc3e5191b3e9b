import type { z } from 'zod';
import { DomainError, describeDetails, type AttributeError, type AttributeErrorType, type ErrorDetails } from '../errors/domain-error.js';
import { describeRule, isBlank } from './issue-messages.js';
import { detailKey, fieldLabel } from './schema-at-path.js';
import { inputRulesOf, withoutReadOnly, type InputRules } from './strict-input.js';
import { unknownFieldMessage } from './unknown-field.js';
import { stringsWithNul } from './strings-with-nul.js';

type Issue = z.core.$ZodIssue;

function toAttributeError(issue: Issue): AttributeError {
  switch (issue.code) {
    case 'invalid_type':
      return { error: isBlank(issue) ? 'blank' : 'invalid' };
    case 'too_small':
      if (isBlank(issue)) return { error: 'blank' };
      if (issue.origin === 'string' || issue.origin === 'array') return { error: 'too_short', count: Number(issue.minimum) };
      // `.positive()` is an exclusive bound (> 0): on whole numbers that is >= 1.
      return { error: 'greater_than_or_equal_to', count: Number(issue.minimum) + (issue.inclusive === false ? 1 : 0) };
    case 'too_big':
      if (issue.origin === 'string' || issue.origin === 'array') return { error: 'too_long', count: Number(issue.maximum) };
      return { error: 'less_than_or_equal_to', count: Number(issue.maximum) };
    case 'unrecognized_keys':
      return { error: 'unknown' };
    case 'custom': {
      const params = (issue.params ?? {}) as { error?: AttributeErrorType; count?: number };
      return params.count === undefined ? { error: params.error ?? 'invalid' } : { error: params.error ?? 'invalid', count: params.count };
    }
    default:
      return { error: 'invalid' };
  }
}

/** One failed rule of one field: its attribute_error and the sentence that explains it. */
interface FieldProblem {
  key: string;
  error: AttributeError;
  /** Undefined: the attribute_error's phrase says it. */
  message: string | undefined;
}

/** Past this many unknown fields in one object, the rest are counted, not listed. */
const unknownFieldsListed = 20;

function problemsOf(issue: Issue, root: z.ZodType, rules: InputRules): FieldProblem[] {
  if (issue.code !== 'unrecognized_keys') {
    const rule = describeRule(issue, root);
    return [{ key: detailKey(issue.path), error: toAttributeError(issue), message: rule === undefined ? undefined : `${fieldLabel(issue.path)} ${rule}` }];
  }
  const listed = issue.keys.slice(0, unknownFieldsListed).map((key) => ({
    key: detailKey([...issue.path, key]),
    error: { error: 'unknown' as const },
    message: unknownFieldMessage(key, issue.path, root, rules),
  }));
  const more = issue.keys.length - listed.length;
  if (more === 0) return listed;
  return [...listed, { key: detailKey(issue.path), error: { error: 'unknown', count: more }, message: `and ${more} more unknown fields` }];
}

/** Keyed the way `details` always was (`nas_share_ids.0`), whatever the message says. */
export function zodIssuesToDetails(issues: readonly Issue[]): ErrorDetails {
  return detailsOf(issues.map((issue) => ({ key: detailKey(issue.path), error: toAttributeError(issue), message: undefined })));
}

function detailsOf(problems: readonly FieldProblem[]): ErrorDetails {
  // A Map, then fromEntries: a field named `__proto__` is a plain key, never the prototype.
  const details = new Map<string, AttributeError[]>();
  for (const { key, error } of problems) details.set(key, [...(details.get(key) ?? []), error]);
  return Object.fromEntries(details);
}

/**
 * One sentence per failed rule. A blank field says only that: "can't be blank" is the
 * whole story, and its pattern failing too would be noise.
 */
function messagesOf(problems: readonly FieldProblem[]): string[] {
  const blank = new Set(problems.filter((problem) => problem.error.error === 'blank').map((problem) => problem.key));
  const messages = problems
    .filter((problem) => problem.error.error === 'blank' || !blank.has(problem.key))
    .map((problem) => problem.message ?? describeDetails({ [problem.key]: [problem.error] })[0]!);
  return [...new Set(messages)];
}

/**
 * Parses input at the edge. A body that is not a JSON object is a 400 (the request is
 * malformed); field problems are a 422 with one attribute_error per failed rule. A body
 * schema made by strictInput drops its read-only fields first and refuses unknown ones.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new DomainError('bad_request', 'request body must be a JSON object', {
      details: { body: [{ error: 'invalid' }] },
    });
  }
  const rules = inputRulesOf(schema);
  const fields = withoutReadOnly(input as Record<string, unknown>, rules);
  // Before any rule of the schema: a password or other free text field takes any character but
  // NUL, which no stored text holds and PostgreSQL refuses in a parameter (a 500, not a 422).
  const withNul = stringsWithNul(fields);
  if (withNul.length > 0) {
    const problems = withNul.map((path) => ({
      key: detailKey(path),
      error: { error: 'invalid' as const },
      message: `${fieldLabel(path)} must not contain NUL characters (\\u0000)`,
    }));
    throw DomainError.invalid(detailsOf(problems), messagesOf(problems));
  }
  const result = schema.safeParse(fields, { reportInput: true });
  if (result.success) return result.data;
  const problems = result.error.issues.flatMap((issue) => problemsOf(issue, schema, rules));
  throw DomainError.invalid(detailsOf(problems), messagesOf(problems));
}
