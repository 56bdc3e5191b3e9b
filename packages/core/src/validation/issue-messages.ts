import { z } from 'zod';
import { fieldsAt, schemaAt, unwrapField } from './schema-at-path.js';

type Issue = z.core.$ZodIssue;

/** A schema's own message that states its rule ("must be printable ASCII") is quoted as is. */
const statesRule = /^(?:must|may|the|is|can't|cannot) /;

/** Beyond these, an integer bound is zod's safe-integer guard, not a rule of the field. */
const isSafeIntegerLimit = (bound: number) => Math.abs(bound) >= Number.MAX_SAFE_INTEGER;

/** Missing, null, or an empty string where one character is the minimum. */
export function isBlank(issue: Issue): boolean {
  if (issue.code === 'invalid_type') return issue.input === undefined || issue.input === null;
  return issue.code === 'too_small' && issue.origin === 'string' && Number(issue.minimum) === 1;
}

const typeNames: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  bigint: 'an integer',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
};

/** What the client sent, by kind only: a value may be a secret (a password) and is not echoed. */
function kindOf(value: unknown, expected: string): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return 'a number too large to represent';
    // A fraction where a whole number is wanted says exactly what is wrong with it.
    return expected === 'int' ? String(value) : 'a number';
  }
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return 'a string';
  return typeof value === 'object' ? 'an object' : typeof value;
}

function isIntegerField(schema: z.ZodType): boolean {
  const inner = unwrapField(schema);
  return inner instanceof z.ZodNumber && inner.isInt;
}

/** `an object` in words, or its fields when the schema knows them: `{"controller": "...", "action": "..."}`. */
function expectedType(issue: z.core.$ZodIssueInvalidType, root: z.ZodType): string {
  if (issue.expected === 'object') {
    const fields = fieldsAt(root, issue.path);
    if (fields.length > 0) return `{${fields.map((field) => `"${field}": "..."`).join(', ')}}`;
  }
  const schema = schemaAt(root, issue.path);
  // zod checks "a number" before "an integer"; the field's rule is the integer.
  const whole = issue.expected === 'number' && schema !== undefined && isIntegerField(schema);
  const name = whole ? typeNames['int']! : (typeNames[issue.expected] ?? issue.expected);
  const acceptsNull = schema?.safeParse(null).success === true;
  return acceptsNull ? `${name} or null` : name;
}

interface NumberBounds {
  min: number | undefined;
  max: number | undefined;
}

/** The real bounds of a numeric field, as whole numbers for an integer (`> 0` is `>= 1`). */
function numberBounds(schema: z.ZodType | undefined): NumberBounds {
  const number = schema === undefined ? undefined : unwrapField(schema);
  if (!(number instanceof z.ZodNumber)) return { min: undefined, max: undefined };
  const finite = (value: number | null) => (value === null || !Number.isFinite(value) || isSafeIntegerLimit(value) ? undefined : value);
  let min = finite(number.minValue);
  let max = finite(number.maxValue);
  if (number.isInt && min !== undefined && !number.safeParse(min).success) min += 1;
  if (number.isInt && max !== undefined && !number.safeParse(max).success) max -= 1;
  return { min, max };
}

function rangeRule(issue: z.core.$ZodIssueTooSmall | z.core.$ZodIssueTooBig, root: z.ZodType): string {
  const whole = issue.origin === 'int' || issue.origin === 'bigint';
  const { min, max } = numberBounds(schemaAt(root, issue.path));
  if (min !== undefined && max !== undefined) return `must be between ${min} and ${max}`;
  if (issue.code === 'too_small') {
    const bound = Number(issue.minimum);
    if (issue.inclusive === false && !whole && min === undefined) return `must be greater than ${bound}`;
    return `must be greater than or equal to ${min ?? bound}`;
  }
  const bound = Number(issue.maximum);
  if (issue.inclusive === false && !whole && max === undefined) return `must be less than ${bound}`;
  return `must be less than or equal to ${max ?? bound}`;
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

function sizeRule(issue: z.core.$ZodIssueTooSmall | z.core.$ZodIssueTooBig, root: z.ZodType): string {
  if (issue.origin === 'string') {
    if (issue.code === 'too_small') return `is too short (minimum is ${plural(Number(issue.minimum), 'character')})`;
    return `is too long (maximum is ${plural(Number(issue.maximum), 'character')})`;
  }
  if (issue.origin === 'array' || issue.origin === 'set') {
    if (issue.code === 'too_small') return `must have at least ${plural(Number(issue.minimum), 'item')}`;
    return `must have at most ${plural(Number(issue.maximum), 'item')}`;
  }
  return rangeRule(issue, root);
}

const formatRules: Readonly<Record<string, string>> = {
  datetime: 'must be a date and time with a time zone, such as 2030-01-31T12:00:00Z',
  date: 'must be a date such as 2030-01-31',
  email: 'must be an email address',
  url: 'must be a URL',
  uuid: 'must be a UUID',
};

/** The values a union of literals (`0 | 1`) or of types (`string | number`) takes. */
function unionRule(issue: z.core.$ZodIssueInvalidUnion): string {
  const branches = issue.errors.map((branch) => (branch.length === 1 ? branch[0] : undefined));
  const literals = branches.flatMap((branch) => (branch?.code === 'invalid_value' && branch.path.length === 0 ? branch.values : []));
  if (literals.length > 0 && literals.length >= branches.length) return `must be one of ${literals.map(String).join(', ')}`;
  const types = branches.flatMap((branch) =>
    branch?.code === 'invalid_type' && branch.path.length === 0 ? [typeNames[branch.expected] ?? branch.expected] : [],
  );
  if (types.length > 0 && types.length === branches.length) return `must be ${types.join(' or ')}`;
  return 'is invalid';
}

/**
 * The rule a failed check stands for, in words a client can act on: the allowed values,
 * the expected type and what was sent instead, the real bounds, or the schema's own rule.
 * Undefined when there is nothing better to say than the attribute_error's own phrase.
 */
export function describeRule(issue: Issue, root: z.ZodType): string | undefined {
  if (isBlank(issue)) return "can't be blank";
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${expectedType(issue, root)}, got ${kindOf(issue.input, issue.expected)}`;
    case 'too_small':
    case 'too_big':
      return sizeRule(issue, root);
    case 'invalid_value':
      // A schema that explains a refusal ("is refused: MD5 is broken ...") says it itself.
      if (statesRule.test(issue.message)) return issue.message;
      return issue.values.length === 1 ? `must be ${String(issue.values[0])}` : `must be one of ${issue.values.map(String).join(', ')}`;
    case 'invalid_union':
      return unionRule(issue);
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    case 'invalid_format':
      if (statesRule.test(issue.message)) return issue.message;
      return formatRules[issue.format];
    case 'custom':
      return statesRule.test(issue.message) ? issue.message : undefined;
    default:
      return undefined;
  }
}
