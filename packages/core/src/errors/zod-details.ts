import type { z } from 'zod';
import { DomainError, describeDetails, type AttributeError, type AttributeErrorType, type ErrorDetails } from './domain-error.js';

type Issue = z.core.$ZodIssue;

function toAttributeError(issue: Issue): AttributeError {
  switch (issue.code) {
    case 'invalid_type':
      return { error: issue.input === undefined || issue.input === null ? 'blank' : 'invalid' };
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return { error: 'blank' };
      if (issue.origin === 'string' || issue.origin === 'array')
        return { error: 'too_short', count: Number(issue.minimum) };
      // `.positive()` is an exclusive bound (> 0): on whole numbers that is >= 1.
      return { error: 'greater_than_or_equal_to', count: Number(issue.minimum) + (issue.inclusive === false ? 1 : 0) };
    case 'too_big':
      if (issue.origin === 'string' || issue.origin === 'array')
        return { error: 'too_long', count: Number(issue.maximum) };
      return { error: 'less_than_or_equal_to', count: Number(issue.maximum) };
    case 'custom': {
      const params = (issue.params ?? {}) as { error?: AttributeErrorType; count?: number };
      return params.count === undefined ? { error: params.error ?? 'invalid' } : { error: params.error ?? 'invalid', count: params.count };
    }
    default:
      return { error: 'invalid' };
  }
}

export function zodIssuesToDetails(issues: readonly Issue[]): ErrorDetails {
  const details: ErrorDetails = {};
  for (const issue of issues) {
    const attribute = issue.path.length === 0 ? 'base' : issue.path.map(String).join('.');
    (details[attribute] ??= []).push(toAttributeError(issue));
  }
  return details;
}

/**
 * Parses input at the edge. A body that is not a JSON object is a 400 (the request is
 * malformed); field problems are a 422 with one attribute_error per failed rule.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new DomainError('bad_request', 'request body must be a JSON object', {
      details: { body: [{ error: 'invalid' }] },
    });
  }
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  const details = zodIssuesToDetails(result.error.issues);
  throw DomainError.invalid(details, describeIssues(result.error.issues, details));
}

/**
 * English messages: a rule that says what it wants ("must be comma-separated key or
 * key=value options") is quoted; zod's generic texts give way to the attribute_error phrase.
 */
function describeIssues(issues: readonly Issue[], details: ErrorDetails): string[] {
  const told = new Set<string>();
  const messages: string[] = [];
  for (const issue of issues) {
    if (!/^must |^may |^the /.test(issue.message)) continue;
    const attribute = issue.path.length === 0 ? 'base' : issue.path.map(String).join('.');
    messages.push(`${attribute} ${issue.message}`);
    told.add(attribute);
  }
  const rest = Object.fromEntries(Object.entries(details).filter(([attribute]) => !told.has(attribute)));
  return [...messages, ...describeDetails(rest)];
}
