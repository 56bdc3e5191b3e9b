import { DomainError } from '../errors/domain-error.js';

/** The most parameters, and the longest value, a provider's answer is read with (codes and states are far shorter). */
const maxParameters = 16;
const maxValueLength = 4096;
const control = /\p{Cc}/u;
/** What OidcService makes a state of: 256 random bits, base64url. */
const stateShape = /^[A-Za-z0-9_-]{43}$/;

/**
 * The query string an OpenID provider sent the browser back with, checked before anything reads
 * it: each parameter once, bounded, without control characters (400 otherwise, saying which).
 */
export function parseOidcCallback(params: URLSearchParams): URLSearchParams {
  const names = [...params.keys()];
  const refuse = (name: string, message: string) => new DomainError('bad_request', message, { details: { [name]: [{ error: 'invalid' }] } });
  if (names.length > maxParameters) throw refuse('query', `the callback takes at most ${maxParameters} query parameters`);
  for (const name of new Set(names)) {
    const values = params.getAll(name);
    if (values.length > 1) throw refuse(name, `query parameter ${name} is given ${values.length} times; the callback takes each once`);
    const value = values[0]!;
    if (value.length > maxValueLength || control.test(value)) {
      throw refuse(name, `query parameter ${name} must be at most ${maxValueLength} characters without control characters`);
    }
  }
  const state = params.get('state');
  if (state === null || !stateShape.test(state)) {
    throw new DomainError('bad_request', 'the callback needs the state the provider was sent (a 43-character base64url value)', {
      details: { state: [{ error: state === null ? 'blank' : 'invalid' }] },
    });
  }
  return params;
}
