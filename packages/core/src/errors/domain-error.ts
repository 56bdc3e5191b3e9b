/**
 * The one error type of the core. Adapters (Hono, tRPC) map `code` to their own status
 * tables; errors are recognised by `name` because `instanceof` fails across Electron IPC.
 */
export type DomainErrorCode =
  | 'bad_request'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'payload_too_large'
  | 'uri_too_long'
  /** A request body not declared `application/json` (issue 40 item 2). */
  | 'unsupported_media_type'
  | 'validation'
  | 'rate_limited'
  | 'unavailable'
  | 'internal';

export type AttributeErrorType =
  | 'blank'
  | 'invalid'
  | 'taken'
  | 'too_short'
  | 'too_long'
  | 'greater_than_or_equal_to'
  | 'less_than_or_equal_to'
  | 'not_found'
  | 'frozen'
  | 'forbidden'
  /** A body field the resource does not have, or one that another endpoint sets (docs/decisions/023-strict-bodies.md). */
  | 'unknown';

export interface AttributeError {
  error: AttributeErrorType;
  count?: number;
  value?: string | number;
}

export type ErrorDetails = Record<string, AttributeError[]>;

export interface DomainErrorOptions {
  details?: ErrorDetails;
  messages?: string[];
  /** Seconds a client should wait (429, 503). */
  retryAfter?: number;
  cause?: unknown;
}

export class DomainError extends Error {
  override readonly name = 'DomainError';
  readonly code: DomainErrorCode;
  readonly details: ErrorDetails;
  readonly messages: string[];
  readonly retryAfter: number | undefined;

  constructor(code: DomainErrorCode, message: string, options: DomainErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = options.details ?? {};
    this.messages = options.messages ?? [message];
    this.retryAfter = options.retryAfter;
  }

  static notFound(resource: string, value: string | number): DomainError {
    return new DomainError('not_found', `${resource} ${JSON.stringify(String(value))} not found`, {
      details: { [resource]: [{ error: 'not_found', value }] },
    });
  }

  static taken(attribute: string, value: string | number, message?: string): DomainError {
    return new DomainError('conflict', message ?? `${attribute} ${JSON.stringify(value)} is already taken`, {
      details: { [attribute]: [{ error: 'taken', value }] },
    });
  }

  static invalid(details: ErrorDetails, messages?: string[]): DomainError {
    const lines = messages ?? describeDetails(details);
    return new DomainError('validation', lines.join('; '), { details, messages: lines });
  }

  static badRequest(attribute: string, message: string): DomainError {
    return new DomainError('bad_request', message, { details: { [attribute]: [{ error: 'invalid' }] } });
  }
}

export function isDomainError(value: unknown): value is DomainError {
  return value instanceof Error && value.name === 'DomainError' && 'code' in value;
}

const phrases: Record<AttributeErrorType, (e: AttributeError) => string> = {
  blank: () => "can't be blank",
  invalid: () => 'is invalid',
  taken: () => 'has already been taken',
  too_short: (e) => `is too short (minimum is ${e.count})`,
  too_long: (e) => `is too long (maximum is ${e.count})`,
  greater_than_or_equal_to: (e) => `must be greater than or equal to ${e.count}`,
  less_than_or_equal_to: (e) => `must be less than or equal to ${e.count}`,
  not_found: () => 'was not found',
  frozen: () => 'cannot be changed',
  forbidden: () => 'is not allowed',
  unknown: () => 'is not a known field',
};

export function describeDetails(details: ErrorDetails): string[] {
  return Object.entries(details).flatMap(([attribute, errors]) => errors.map((e) => `${attribute} ${phrases[e.error](e)}`));
}
