import { describe, expect, it } from 'vitest';
import { DomainError } from './domain-error.js';
import { toDomainError } from './to-domain-error.js';

describe('toDomainError', () => {
  it('passes a DomainError through unchanged', () => {
    const error = DomainError.notFound('nas_id', 7);
    expect(toDomainError(error)).toBe(error);
  });

  it('makes a storage failure unavailable, retry after 5 s', () => {
    const busy = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    expect(toDomainError(busy)).toMatchObject({ code: 'unavailable', retryAfter: 5 });
  });

  it('makes anything else internal, without its message', () => {
    const mapped = toDomainError(new TypeError('secret detail'));
    expect(mapped).toMatchObject({ code: 'internal', messages: ['internal server error'] });
    expect(JSON.stringify(mapped.messages)).not.toContain('secret');
  });
});
